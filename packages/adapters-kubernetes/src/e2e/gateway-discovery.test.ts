import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@switchyard/core/testing';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { runGatewayCli, type Gateway } from '@switchyard/express';
import type { FakeApiServer } from '../test-support/fake-api/index.js';
import { startPoolCluster, type PoolCluster } from '../test-support/pool-cluster.js';
import { CONFIGMAPS, PODS, REWRITES, modelMappingObject, podObject, setReady } from '../test-support/objects.js';

const IPS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];

describe('switchyard-gateway --pool-name follows an InferencePool on the fake API server', () => {
  let cluster: PoolCluster;
  let api: FakeApiServer;
  let gateway: Gateway;
  let url: string;

  /** One completion; returns the pod that served it (the simulator's `x-simulator-pod`) and the status. */
  const complete = async (model = 'm'): Promise<{ status: number; pod: string }> => {
    const res = await fetch(`${url}/v1/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, prompt: `hi ${String(Math.random())}`, max_tokens: 2 }) });
    await res.arrayBuffer();
    return { status: res.status, pod: res.headers.get('x-simulator-pod') ?? '' };
  };
  const expectOnly = async (pods: string[]): Promise<void> => {
    for (let i = 0; i < 6; i++) {
      const r = await complete();
      expect(r.status).toBe(200);
      expect(pods).toContain(r.pod);
    }
  };
  const size = (): number => gateway.pools[0]!.source.size;

  beforeAll(async () => {
    cluster = await startPoolCluster(IPS);
    api = cluster.api;
    const errors: string[] = [];
    const result = await runGatewayCli([...cluster.flags, '--port', '0'], { out: () => undefined, err: (l) => errors.push(l) });
    if (result.kind !== 'running') throw new Error(`gateway did not start: ${errors.join('\n')}`);
    gateway = result.gateway;
    url = result.url;
  });

  afterAll(async () => {
    await gateway.close();
    await cluster.close();
  });

  it('routes HTTP requests only to the ready pool pods as they change', async () => {
    await waitFor(() => size() === 2, { what: 'two pods joined' });
    await expectOnly(['vllm-0', 'vllm-1']);
    setReady(api.store, 'default', 'vllm-0', false);
    await waitFor(() => size() === 1, { what: 'vllm-0 unready' });
    await expectOnly(['vllm-1']);
    api.store.create(PODS, 'default', podObject('vllm-2', IPS[2]!, { labels: { app: 'vllm', 'llm-d.ai/role': 'decode' } }));
    await waitFor(() => size() === 2, { what: 'vllm-2 joined' });
    expect(gateway.pools[0]!.source.get('default/vllm-2-rank-0')?.labels['llm-d.ai/role']).toBe('decode');
    await expectOnly(['vllm-1', 'vllm-2']);
    api.store.delete(PODS, 'default', 'vllm-1');
    await waitFor(() => size() === 1, { what: 'vllm-1 deleted' });
    await expectOnly(['vllm-2']);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/switchyard_kubernetes_endpoints\{pool="chat",state="ready"\} 1/);
  });

  it('rewrites models live from InferenceModelRewrites', async () => {
    expect((await complete('alias')).status).toBe(404);
    api.store.create(REWRITES, 'default', {
      apiVersion: 'llm-d.ai/v1alpha2',
      kind: 'InferenceModelRewrite',
      metadata: { name: 'alias-to-m' },
      spec: { poolRef: { name: 'chat' }, rules: [{ matches: [{ model: { value: 'alias' } }], targets: [{ modelRewrite: 'm' }] }] },
    });
    await waitFor(() => gateway.pools[0]!.rewrites.get('alias-to-m') !== undefined, { what: 'rewrite arrived' });
    expect((await complete('alias')).status).toBe(200);
    api.store.delete(REWRITES, 'default', 'alias-to-m');
    await waitFor(() => gateway.pools[0]!.rewrites.get('alias-to-m') === undefined, { what: 'rewrite deleted' });
    expect((await complete('alias')).status).toBe(404);
  });

  it('forwards x-gateway-base-model-name from the IPP model-mapping ConfigMaps to the pods', async () => {
    // What the pods received: every request reaching a server bound to a pod IP.
    const seen: (string | undefined)[] = [];
    const onRequest = (message: unknown): void => {
      const req = (message as { request: IncomingMessage }).request;
      if (IPS.includes(req.socket.localAddress ?? '') && req.method === 'POST') seen.push(req.headers['x-gateway-base-model-name'] as string | undefined);
    };
    subscribe('http.server.request.start', onRequest);
    /** Sends completions until the pods see `value` (the ConfigMap watch is asynchronous). */
    const untilPodsSee = async (value: string): Promise<void> => {
      for (let i = 0; i < 200 && seen.at(-1) !== value; i++) await complete('m-lora');
      expect(seen.at(-1)).toBe(value);
    };
    try {
      await complete('m-lora');
      // Set even when the model is unknown, as IPP does.
      expect(seen.at(-1)).toBe('');
      api.store.create(CONFIGMAPS, 'default', modelMappingObject('m-adapters', 'm', ['m-lora']));
      await untilPodsSee('m');
      api.store.delete(CONFIGMAPS, 'default', 'm-adapters');
      await untilPodsSee('');
    } finally {
      unsubscribe('http.server.request.start', onRequest);
    }
  });
});
