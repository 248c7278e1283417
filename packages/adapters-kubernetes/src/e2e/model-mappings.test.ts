import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { waitFor } from '@switchyard/core/testing';
import { EnvoyEmulator } from '../../../adapters-envoy/src/test-support/envoy-client.js';
import { reqBody, reqHeaders } from '../../../adapters-envoy/src/test-support/wire-helpers.js';
import { startEppProcess, startGatewayProcess, type CliProcess, type EppProcess, type GatewayProcess } from '../test-support/cli-process.js';
import { kubectl } from '../test-support/fake-api/kubectl.js';
import { mutationHeaders } from '../test-support/header-mutation.js';
import { startPoolCluster, type PoolCluster } from '../test-support/pool-cluster.js';

const IPS = ['127.0.0.2', '127.0.0.3'];
/** What every pod serves: base model `m` and two LoRA adapters. */
const ADAPTERS = ['sql-lora', 'chat-lora'];
const BASE_HEADER = 'x-gateway-base-model-name';

/** The IPP ConfigMap as an operator applies it. */
const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: m-adapters
  labels:
    inference.llm-d.ai/ipp-managed: "true"
data:
  baseModel: m
  adapters: |
    - sql-lora
`;

const wait = <T>(check: () => T | Promise<T>, what: string): Promise<NonNullable<T>> => waitFor(check, { what, timeoutMs: 20_000 });

interface Answer {
  readonly status: number;
  /** The pod that answered (the simulator's `x-simulator-pod`), '' when the gateway answered itself. */
  readonly pod: string;
  readonly body: { error?: { code?: string } };
}

// Both built CLIs on one fake API server, the ConfigMap created, patched and deleted with kubectl.
describe('IPP model-mapping ConfigMaps drive switchyard-gateway\'s model names and switchyard-epp\'s header, live', () => {
  let cluster: PoolCluster;
  let kube: { path: string; dir: string };
  let gateway: GatewayProcess;
  let epp: EppProcess;
  let envoy: EnvoyEmulator;
  /** The base-model header of every inference request a pod received, by model. */
  const seen: { model: string; base: string | undefined }[] = [];
  const onRequest = (message: unknown): void => {
    const req = (message as { request: IncomingMessage }).request;
    if (IPS.includes(req.socket.localAddress ?? '') && req.method === 'POST') seen.push({ model: '', base: req.headers[BASE_HEADER] as string | undefined });
  };

  const complete = async (model: string): Promise<Answer> => {
    const before = seen.length;
    const res = await fetch(`${gateway.url}/v1/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, prompt: `hi ${String(Math.random())}`, max_tokens: 2 }) });
    const text = await res.text();
    for (const s of seen.slice(before)) s.model = model;
    return { status: res.status, pod: res.headers.get('x-simulator-pod') ?? '', body: JSON.parse(text) as Answer['body'] };
  };
  const listed = async (): Promise<{ id: string; owned_by: string }[]> => ((await (await fetch(`${gateway.url}/v1/models`)).json()) as { data: { id: string; owned_by: string }[] }).data;
  const ids = async (): Promise<string> => (await listed()).map((m) => m.id).sort().join(',');
  /** The base-model header the EPP sets for `model` over ext_proc. */
  const eppBase = async (model: string): Promise<string | undefined> => {
    const s = envoy.open();
    s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions' }));
    s.send(reqBody(JSON.stringify({ model, prompt: `p ${String(Math.random())}` }), true));
    const [head] = await s.waitFor(1);
    s.cancel();
    await s.ended;
    return mutationHeaders(head!.request_headers!.response.header_mutation)[BASE_HEADER];
  };
  /** The header the pods last saw for a request for `model` through the gateway. */
  const podBase = (model: string): string | undefined => seen.filter((s) => s.model === model).at(-1)?.base;

  beforeAll(async () => {
    subscribe('http.server.request.start', onRequest);
    cluster = await startPoolCluster(IPS, { adapters: ADAPTERS });
    kube = cluster.kube;
    [gateway, epp] = await Promise.all([
      startGatewayProcess([...cluster.flags, '--port', '0']),
      startEppProcess([...cluster.flags, '--grpc-port', '0', '--metrics-port', '0', '--drain-timeout', '0s']),
    ]);
    envoy = new EnvoyEmulator(epp.port);
    await wait(async () => (await complete('m')).status === 200, 'the gateway routes to the pool');
    await wait(async () => (await eppBase('m')) !== undefined, 'the EPP routes');
  });

  afterAll(async () => {
    unsubscribe('http.server.request.start', onRequest);
    envoy.close();
    const stop = async (p: CliProcess): Promise<void> => {
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    };
    await Promise.all([stop(gateway), stop(epp)]);
    await cluster.close();
  });

  it('without a ConfigMap: every name is forwarded, /v1/models is the pods\' own, the header is empty', async () => {
    expect(await ids()).toBe('chat-lora,m,sql-lora');
    expect((await listed()).every((m) => m.owned_by !== 'default')).toBe(true);
    // The pod itself rejects a name it does not serve: the gateway forwarded it.
    const unknown = await complete('nope');
    expect(unknown.status).toBe(404);
    expect(unknown.pod).not.toBe('');
    expect((await complete('sql-lora')).status).toBe(200);
    expect(podBase('sql-lora')).toBe('');
    expect(await eppBase('sql-lora')).toBe('');
  });

  it('kubectl create: only the mapped base model and adapters are served and listed; others get model_not_found', async () => {
    await kubectl(kube, ['create', '--validate=false', '-f', '-'], CONFIGMAP);
    await wait(async () => (await ids()) === 'm,sql-lora', 'the gateway lists the mapping');
    expect(await listed()).toEqual([
      { id: 'm', object: 'model', created: 0, owned_by: 'default' },
      { id: 'sql-lora', object: 'model', created: 0, owned_by: 'default' },
    ]);
    const adapter = await complete('sql-lora');
    expect(adapter.status).toBe(200);
    expect(adapter.pod).not.toBe('');
    expect(podBase('sql-lora')).toBe('m');
    // Served by the pods but not mapped: the gateway answers itself, as for any unknown model.
    const unmapped = await complete('chat-lora');
    expect(unmapped).toMatchObject({ status: 404, pod: '', body: { error: { code: 'model_not_found' } } });
    expect((await complete('nope')).pod).toBe('');
    await wait(async () => (await eppBase('sql-lora')) === 'm', 'the EPP maps the adapter');
    expect(await eppBase('m')).toBe('m');
    expect(await eppBase('chat-lora')).toBe('');
  });

  it('kubectl patch --type merge: a second adapter is served at once', async () => {
    await kubectl(kube, ['patch', 'configmap', 'm-adapters', '--type', 'merge', '-p', JSON.stringify({ data: { adapters: '- sql-lora\n- chat-lora\n' } })]);
    await wait(async () => (await ids()) === 'chat-lora,m,sql-lora' && (await listed()).every((m) => m.owned_by === 'default'), 'the gateway lists the patched mapping');
    expect((await complete('chat-lora')).status).toBe(200);
    expect(podBase('chat-lora')).toBe('m');
    expect((await complete('nope')).status).toBe(404);
    await wait(async () => (await eppBase('chat-lora')) === 'm', 'the EPP maps the new adapter');
  });

  it('kubectl delete: back to forwarding every name and relaying the pods\' list', async () => {
    await kubectl(kube, ['delete', 'configmap', 'm-adapters']);
    await wait(async () => (await complete('nope')).pod !== '', 'the gateway forwards unknown names again');
    expect((await listed()).every((m) => m.owned_by !== 'default')).toBe(true);
    expect((await complete('sql-lora')).status).toBe(200);
    expect(podBase('sql-lora')).toBe('');
    await wait(async () => (await eppBase('sql-lora')) === '', 'the EPP forgot the mapping');
  });
});
