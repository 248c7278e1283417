import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@switchyard/core/testing';
import { runEppCli, type RunningEpp } from '@switchyard/envoy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { reqBody, reqHeaders, setHeaders } from '../test-support/wire-helpers.js';

const CONFIG = `apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
featureGates: [flowControl]
plugins:
- type: queue-scorer
- type: kv-cache-utilization-scorer
- type: prefix-cache-scorer
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: queue-scorer
    weight: 2
  - pluginRef: kv-cache-utilization-scorer
    weight: 2
  - pluginRef: prefix-cache-scorer
    weight: 3
`;

const RESOURCES = `apiVersion: inference.networking.x-k8s.io/v1alpha2
kind: InferenceObjective
metadata: { name: critical }
spec: { priority: 10, poolRef: { name: pool } }
`;

/** A model server that only serves vLLM metrics, with a fixed queue length. */
function modelServer(waiting: number): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end(
      `vllm:num_requests_waiting{model_name="m"} ${waiting}\nvllm:num_requests_running{model_name="m"} 1\nvllm:kv_cache_usage_perc{model_name="m"} 0.2\n`,
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => { resolve(server); }));
}

let dir: string;
let servers: Server[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epp-cli-'));
  servers = await Promise.all([modelServer(7), modelServer(0), modelServer(4)]);
  const addresses = servers.map((s) => `127.0.0.1:${(s.address() as AddressInfo).port}`);
  await writeFile(join(dir, 'config.yaml'), CONFIG);
  await writeFile(join(dir, 'endpoints.txt'), `# pool\n${addresses.join('\n')}\n`);
  await writeFile(join(dir, 'resources.yaml'), RESOURCES);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await rm(dir, { recursive: true, force: true });
});

describe('switchyard-epp', () => {
  it('prints usage', async () => {
    let out = '';
    const code = await runEppCli(['--help'], { stdout: (t) => (out += t), stderr: () => undefined, signal: new AbortController().signal });
    expect(code).toBe(0);
    expect(out).toContain('--grpc-port');
  });

  it('loads config, endpoints and resources, scrapes metrics, picks, serves /metrics, drains on abort', async () => {
    const stop = new AbortController();
    let err = '';
    let epp: RunningEpp | undefined;
    const started = new Promise<RunningEpp>((resolve) => {
      void runEppCli(
        ['--config', join(dir, 'config.yaml'), '--endpoints-file', join(dir, 'endpoints.txt'), '--resources', join(dir, 'resources.yaml'), '--host', '127.0.0.1', '--grpc-port', '0', '--metrics-port', '0'],
        { stdout: () => undefined, stderr: (t) => (err += t), signal: stop.signal, onStarted: resolve },
      ).then((code) => {
        expect(code).toBe(0);
      });
    });
    epp = await started;
    expect(err).toContain('effective settings');
    expect(err).toContain('"flowControl":true');
    expect(err).toContain('"objectives":1');
    expect(err).toContain('queue-scorer');
    expect(err).toContain('prefix-cache-scorer');
    expect(err).toContain('approx-prefix-cache-producer'); // auto-created for the prefix scorer
    expect(epp.flowController).toBeDefined();

    const running = epp;
    await waitFor(() => running.pool.list().every((e) => e.metrics !== undefined), { what: 'a first scrape of every endpoint' });
    expect(epp.pool.list().map((e) => e.metrics?.waitingQueueSize)).toEqual([7, 0, 4]);

    const envoy = new EnvoyEmulator(epp.server.port);
    const s = envoy.open();
    s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions', 'x-gateway-inference-objective': 'critical' }));
    s.send(reqBody('{"model":"m","prompt":"hello"}', true));
    const [head] = await s.waitFor(1);
    expect(setHeaders(head!.request_headers!.response.header_mutation)['x-gateway-destination-endpoint']).toBe(epp.pool.list()[1]!.address);
    s.cancel();
    await s.ended;
    envoy.close();

    const port = epp.metricsServer!.port;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).toMatch(/llm_d_epp_request_total\{[^}]*priority="10"[^}]*\} 1/);
    expect(text).toContain('switchyard_envoy_decisions_total 1');
    expect(text).toContain('llm_d_epp_prefix_indexer_hit_ratio');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);

    stop.abort();
    await waitFor(() => err.includes('draining'), { what: 'the draining message' });
    await epp.server.close();
    epp = undefined;
  });

  it('runs the switchyard routing profile with --profile switchyard', async () => {
    const stop = new AbortController();
    let err = '';
    let exited: Promise<number> | undefined;
    const started = new Promise<RunningEpp>((resolve) => {
      exited = runEppCli(['--profile', 'switchyard', '--endpoints', '127.0.0.1:1', '--host', '127.0.0.1', '--grpc-port', '0', '--metrics-port', '0'], { stdout: () => undefined, stderr: (t) => (err += t), signal: stop.signal, onStarted: resolve });
    });
    const epp = await started;
    expect(err).toContain('estimated-ttft-scorer');
    expect(err).not.toContain('queue-scorer');
    stop.abort();
    expect(await exited).toBe(0);
    await epp.server.close();
  });

  it('rejects an invalid config with a message naming the field', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: no-such-plugin\n');
    await expect(runEppCli(['--config', join(dir, 'bad.yaml'), '--endpoints', '127.0.0.1:1', '--grpc-port', '0', '--metrics-port', '0'], { stdout: () => undefined, stderr: () => undefined, signal: AbortSignal.abort() })).rejects.toThrow(/no-such-plugin/);
  });
});
