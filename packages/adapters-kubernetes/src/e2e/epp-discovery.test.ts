import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@switchyard/core/testing';
import { runEppCli, ServingStatus, type RunningEpp } from '@switchyard/envoy';
import { EnvoyEmulator } from '../../../adapters-envoy/src/test-support/envoy-client.js';
import { reqBody, reqHeaders } from '../../../adapters-envoy/src/test-support/wire-helpers.js';
import { mutationHeaders } from '../test-support/header-mutation.js';
import type { FakeApiServer } from '../test-support/fake-api/index.js';
import type { LoopbackFleet } from '../test-support/loopback-fleet.js';
import { startPoolCluster, type PoolCluster } from '../test-support/pool-cluster.js';
import { CONFIGMAPS, OBJECTIVES, PODS, POOLS, modelMappingObject, podObject, setReady } from '../test-support/objects.js';

const IPS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];

describe('switchyard-epp --pool-name follows an InferencePool on the fake API server', () => {
  let cluster: PoolCluster;
  let api: FakeApiServer;
  let fleet: LoopbackFleet;
  let epp: RunningEpp;
  let envoy: EnvoyEmulator;
  const stop = new AbortController();
  let exited: Promise<number>;
  let stderr = '';

  /** Sends one ext_proc request and returns the destination the picker chose. */
  const route = async (headers: Record<string, string> = {}, prompt = 'hello'): Promise<string> => (await mutation(headers, prompt))['x-gateway-destination-endpoint'] ?? '';
  /** Sends one ext_proc request and returns the headers the picker sets on it. */
  const mutation = async (headers: Record<string, string> = {}, prompt = 'hello', model = 'm'): Promise<Record<string, string>> => {
    const s = envoy.open();
    s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions', ...headers }));
    s.send(reqBody(JSON.stringify({ model, prompt }), true));
    const [head] = await s.waitFor(1);
    s.cancel();
    await s.ended;
    return mutationHeaders(head!.request_headers!.response.header_mutation);
  };
  /** Sends `n` requests with distinct prompts; every one must go to an `allowed` pod. */
  const expectOnly = async (allowed: string[], n = 8): Promise<void> => {
    for (let i = 0; i < n; i++) expect(allowed).toContain(await route({}, `prompt ${String(i)} ${String(Math.random())}`));
    expect(members()).toEqual([...allowed].sort());
  };
  const addr = (i: number): string => `${IPS[i]!}:${String(fleet.port)}`;
  const members = (): string[] => epp.pool.list().map((e) => e.address).sort();

  beforeAll(async () => {
    cluster = await startPoolCluster(IPS);
    ({ api, fleet } = cluster);
    const started = new Promise<RunningEpp>((resolve) => {
      exited = runEppCli([...cluster.flags, '--grpc-port', '0', '--metrics-port', '0', '--drain-timeout', '0s'], {
        stdout: () => undefined,
        stderr: (t) => (stderr += t),
        signal: stop.signal,
        onStarted: resolve,
      });
    });
    epp = await started;
    envoy = new EnvoyEmulator(epp.server.port);
  });

  afterAll(async () => {
    stop.abort();
    expect(await exited).toBe(0);
    envoy.close();
    await cluster.close();
  });

  it('is ready once synced and routes only to the pool pods after every change', async () => {
    await waitFor(() => members().length === 2, { what: 'both pods joined' });
    expect(await envoy.check('readiness')).toBe(ServingStatus.SERVING);
    await expectOnly([addr(0), addr(1)]);
    expect(epp.pool.get('default/vllm-0-rank-0')?.metrics).toBeDefined();

    // Readiness flips off: only vllm-0 is left.
    setReady(api.store, 'default', 'vllm-1', false);
    await waitFor(() => members().length === 1, { what: 'vllm-1 left' });
    await expectOnly([addr(0)]);

    // Scale up.
    api.store.create(PODS, 'default', podObject('vllm-2', IPS[2]!));
    await waitFor(() => members().length === 2, { what: 'vllm-2 joined' });
    await expectOnly([addr(0), addr(2)]);

    // A label change takes vllm-0 out.
    api.store.patch(PODS, 'default', 'vllm-0', { metadata: { labels: { app: 'retired' } } });
    await waitFor(() => members().length === 1, { what: 'vllm-0 relabelled' });
    await expectOnly([addr(2)]);

    // A 410: the watch reconnects from a compacted resourceVersion and relists.
    api.store.compact();
    api.store.create(PODS, 'default', podObject('vllm-3', IPS[3]!));
    api.store.compact();
    api.endWatches();
    await waitFor(() => members().length === 2, { what: 'vllm-3 after the relist' });
    await expectOnly([addr(2), addr(3)]);

    // API server restart: known endpoints keep serving, then changes flow again.
    const restarted = api.restart(300);
    await expectOnly([addr(2), addr(3)]);
    await restarted;
    api.store.delete(PODS, 'default', 'vllm-2');
    await waitFor(() => members().length === 1, { what: 'vllm-2 deleted after the restart' });
    await expectOnly([addr(3)]);

    // Selector change on the pool: relist, the relabelled pod is back in.
    api.store.patch(POOLS, 'default', 'chat', { spec: { selector: { matchLabels: { app: 'retired' } } } });
    await waitFor(() => members().join() === addr(0), { what: 'selector switched to app=retired' });
    await expectOnly([addr(0)]);

    const metrics = await (await fetch(`http://127.0.0.1:${String(epp.metricsServer!.port)}/metrics`)).text();
    expect(metrics).toMatch(/switchyard_kubernetes_watch_restarts_total\{resource="pods"\} [1-9]/);
    expect(metrics).toMatch(/switchyard_kubernetes_relists_total\{resource="pods"\} [2-9]/);
    expect(metrics).toMatch(/switchyard_kubernetes_last_sync_age_seconds\{resource="pods"\} /);
  });

  it('changes priorities live from InferenceObjectives', async () => {
    const metricsText = async (): Promise<string> => (await fetch(`http://127.0.0.1:${String(epp.metricsServer!.port)}/metrics`)).text();
    await route({ 'x-gateway-inference-objective': 'critical' });
    expect(await metricsText()).not.toMatch(/llm_d_epp_request_total\{[^}]*priority="10"/);
    api.store.create(OBJECTIVES, 'default', { apiVersion: 'llm-d.ai/v1alpha2', kind: 'InferenceObjective', metadata: { name: 'critical' }, spec: { priority: 10, poolRef: { name: 'chat' } } });
    api.store.create(OBJECTIVES, 'default', { apiVersion: 'llm-d.ai/v1alpha2', kind: 'InferenceObjective', metadata: { name: 'elsewhere' }, spec: { priority: 5, poolRef: { name: 'other-pool' } } });
    await waitFor(() => epp.objectives.priorityOf('critical') === 10, { what: 'objective arrived' });
    expect(epp.objectives.get('elsewhere')).toBeUndefined();
    await route({ 'x-gateway-inference-objective': 'critical' });
    expect(await metricsText()).toMatch(/llm_d_epp_request_total\{[^}]*priority="10"[^}]*\} 1/);
    api.store.delete(OBJECTIVES, 'default', 'critical');
    await waitFor(() => epp.objectives.get('critical') === undefined, { what: 'objective deleted' });
  });

  it('sets x-gateway-base-model-name live from the IPP model-mapping ConfigMaps', async () => {
    const base = async (model: string): Promise<string | undefined> => (await mutation({}, `p ${String(Math.random())}`, model))['x-gateway-base-model-name'];
    // Set even when unknown, as IPP does.
    expect(await base('sql-lora')).toBe('');
    api.store.create(CONFIGMAPS, 'default', modelMappingObject('llama-adapters', 'llama-3', ['sql-lora', 'chat-lora']));
    api.store.create(CONFIGMAPS, 'default', modelMappingObject('unmanaged', 'qwen', ['code-lora'], false));
    api.store.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'broken', labels: { 'inference.llm-d.ai/ipp-managed': 'true' } }, data: { adapters: '- x' } });
    await waitFor(async () => (await base('sql-lora')) === 'llama-3', { what: 'the mapping arrived' });
    expect(await base('llama-3')).toBe('llama-3');
    expect(await base('code-lora')).toBe('');
    expect(stderr).toMatch(/ignoring ConfigMap default\/broken: data\.baseModel: required/);
    // Removing the label drops the mapping; labelling the other ConfigMap adds its own.
    api.store.patch(CONFIGMAPS, 'default', 'llama-adapters', { metadata: { labels: { 'inference.llm-d.ai/ipp-managed': null } } });
    api.store.patch(CONFIGMAPS, 'default', 'unmanaged', { metadata: { labels: { 'inference.llm-d.ai/ipp-managed': 'true' } } });
    await waitFor(async () => (await base('code-lora')) === 'qwen', { what: 'the relabelled ConfigMap arrived' });
    expect(await base('sql-lora')).toBe('');
    api.store.delete(CONFIGMAPS, 'default', 'unmanaged');
    await waitFor(async () => (await base('code-lora')) === '', { what: 'the deleted ConfigMap left' });
  });
});
