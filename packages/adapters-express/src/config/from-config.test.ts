import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type RequestListener, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import OpenAI from 'openai';
import { ManualClock, definePlugin } from '@switchyard/core';
import { z } from 'zod';
import { GatewayMetrics, createGatewayFromConfig, runGatewayCli, type Gateway } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { deadAddress, get, post } from '../test-support/harness.js';
import { TEST_CERT, TEST_KEY } from '../test-support/tls-fixture.js';

const chat = (model = 'm1'): Record<string, unknown> => ({ model, messages: [{ role: 'user', content: 'hello there' }] });

describe('createGatewayFromConfig (real EndpointPicker)', () => {
  let a: FakeUpstream;
  let b: FakeUpstream;
  const open: Gateway[] = [];
  const start = async (...args: Parameters<typeof createGatewayFromConfig>): Promise<{ gw: Gateway; url: string }> => {
    const gw = await createGatewayFromConfig(...args);
    open.push(gw);
    const { url } = await gw.listen(0, '127.0.0.1');
    return { gw, url };
  };

  beforeAll(async () => {
    a = await startFakeUpstream('a');
    b = await startFakeUpstream('b');
  });
  afterAll(async () => {
    for (const g of open) await g.close();
    await a.close();
    await b.close();
    for (const e of exporters) await new Promise((r) => e.close(r));
  });
  /** A metrics exporter apart from any model server, closed after the suite; resolves with its port. */
  const exporters: (HttpServer | HttpsServer)[] = [];
  const startExporter = async (handler: RequestListener, tls = false): Promise<number> => {
    const server = tls ? createHttpsServer({ cert: TEST_CERT, key: TEST_KEY }, handler) : createServer(handler);
    exporters.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  };

  it('runs one pool from --endpoints with llm-d defaults, for the openai client', async () => {
    const { url, gw } = await start({ endpoints: [a.address, b.address] });
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'none', maxRetries: 0 });
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const r = await client.chat.completions.create({ model: 'any-model', messages: [{ role: 'user', content: `question ${i}` }] }).withResponse();
      expect(r.data.model).toBe('any-model');
      served.add(String(r.response.headers.get('x-gateway-destination-endpoint-served')));
    }
    expect([...served].every((s) => s === a.address || s === b.address)).toBe(true);
    const stream = await client.chat.completions.create({ model: 'any-model', messages: [{ role: 'user', content: 'stream please' }], stream: true });
    let text = '';
    for await (const ev of stream) text += ev.choices[0]?.delta.content ?? '';
    expect(text).toMatch(/Hello from [ab]/);
    expect((await client.models.list()).data.map((m) => m.id).sort()).toEqual(['a-model', 'b-model']);
    const metrics = (await get(`${url}/metrics`)).text;
    // "any-model" is not one the endpoints list: it is counted under the one unknown-model label.
    expect(metrics).toMatch(/llm_d_epp_request_total\{model_name="__unknown__",target_model_name="__unknown__",fairness_id="default-flow",priority="0"\} 7/);
    expect(metrics).toContain('switchyard_gateway_requests_total{route="inference",code="200"} 7');
    // llm-d's default profile with prefix-index registered: the prefix index saw every request.
    expect(metrics).toMatch(/llm_d_epp_prefix_indexer_hit_ratio_count\{plugin_name="approx-prefix-cache-producer",plugin_type="approx-prefix-cache-producer"\} 7/);
    expect(gw.pools[0]?.pool.endpoints?.size).toBe(2);
  });

  it('routes models to pools from the gateway section, with splits, trust and flow control', async () => {
    const config = `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
featureGates: [flowControl]
gateway:
  failureMode: FailOpen
  trust:
    trustedClients: ["127.0.0.1"]
  pools:
    - name: alpha
      endpoints: ["${a.address}"]
      models: [llama, sql-lora]
    - name: beta
      endpoints: [{ address: "${b.address}", labels: { llm-d.ai/role: decode } }]
      models: [qwen]
  routes:
    - name: canary
      split: [{ pool: alpha, weight: 1, model: llama }, { pool: beta, weight: 1, model: qwen }]
`;
    const { url } = await start({ config });
    const r1 = await post(`${url}/v1/chat/completions`, chat('sql-lora'), { 'x-llm-d-inference-fairness-id': 'tenant-a' });
    expect(r1.headers['x-gateway-destination-endpoint-served']).toBe(a.address);
    expect(a.received.at(-1)?.headers['x-llm-d-inference-fairness-id']).toBeUndefined();
    expect((await post(`${url}/v1/chat/completions`, chat('qwen'))).headers['x-gateway-destination-endpoint-served']).toBe(b.address);
    const missing = await post(`${url}/v1/chat/completions`, chat('nope'));
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'model_not_found' } });
    const seen = new Set<string>();
    for (let i = 0; i < 30 && seen.size < 2; i++) {
      const r = await post(`${url}/v1/chat/completions`, chat('canary'));
      expect((r.json() as { model: string }).model).toBe('canary');
      seen.add(String(r.headers['x-gateway-destination-endpoint-served']));
    }
    expect(seen).toEqual(new Set([a.address, b.address]));
    const models = (await get(`${url}/v1/models`)).json() as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['llama', 'sql-lora', 'qwen', 'canary']);
    const metrics = (await get(`${url}/metrics`)).text;
    expect(metrics).toMatch(/llm_d_epp_request_total\{model_name="sql-lora",target_model_name="sql-lora",fairness_id="tenant-a"/);
    expect(metrics).toMatch(/inference_pool="alpha"/);
    expect(metrics).toMatch(/inference_pool="beta"/);
    expect(metrics.match(/# HELP llm_d_epp_flow_control_queue_size /g)).toHaveLength(1);
  });

  it('gives each pool the InferenceObjectives and rewrites of resources that name it', async () => {
    const config = `apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\ngateway:\n  pools:\n  - { name: alpha, endpoints: ["${a.address}"], models: [llama] }\n  - { name: beta, endpoints: ["${b.address}"], models: [qwen] }\n`;
    const objective = (name: string, priority: number, pool?: string): string =>
      `apiVersion: llm-d.ai/v1\nkind: InferenceObjective\nmetadata: { name: ${name} }\nspec: { priority: ${priority}${pool === undefined ? '' : `, poolRefs: [{ name: ${pool} }]`} }\n`;
    const rewrite = 'apiVersion: inference.networking.x-k8s.io/v1alpha2\nkind: InferenceModelRewrite\nmetadata: { name: rw }\nspec: { poolRef: { name: beta }, rules: [{ matches: [{ model: { value: old } }], targets: [{ modelRewrite: qwen }] }] }\n';
    const resources = [objective('gold', 50, 'alpha'), objective('bronze', -1, 'beta'), objective('everywhere', 7), rewrite, 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: skipped }\n'].join('---\n');
    const { gw } = await start({ config, resources, scrapeMetrics: false });
    const [alpha, beta] = gw.pools;
    expect(alpha?.objectives.list().map((o) => o.name)).toEqual(['gold', 'everywhere']);
    expect(beta?.objectives.list().map((o) => o.name)).toEqual(['bronze', 'everywhere']);
    expect(alpha?.rewrites.list()).toEqual([]);
    expect(beta?.rewrites.list().map((r) => r.name)).toEqual(['rw']);
    await expect(createGatewayFromConfig({ endpoints: [a.address], resources: 'apiVersion: llm-d.ai/v1\nkind: InferenceObjective\nmetadata: { name: x }\nspec: { priority: 1, colour: red }\n', resourcesPath: 'objectives.yaml', scrapeMetrics: false })).rejects.toThrow(/^objectives\.yaml: .*colour/);
  });

  it('adds the compact decision trace header when asked (option or gateway.console.traceHeader)', async () => {
    const { url } = await start({ endpoints: [a.address], decisionTraceHeader: true, scrapeMetrics: false });
    const r = await post(`${url}/v1/chat/completions`, chat());
    expect(r.status).toBe(200);
    expect(r.headers['x-switchyard-decision-trace']).toMatch(new RegExp(`^model=m1;priority=0;fairness=default-flow;profile=[^;]+;candidates=1;picked=${a.address.replace(/\./g, '\\.')};`));
    const config = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\ngateway:\n  console: { traceHeader: true }\n';
    const viaConfig = await start({ config, endpoints: [a.address], scrapeMetrics: false });
    expect((await post(`${viaConfig.url}/v1/chat/completions`, chat())).headers['x-switchyard-decision-trace']).toContain(`picked=${a.address}`);
    const off = await start({ endpoints: [a.address], scrapeMetrics: false });
    expect((await post(`${off.url}/v1/chat/completions`, chat())).headers['x-switchyard-decision-trace']).toBeUndefined();
  });

  it("serves the pickers' metrics beside a GatewayMetrics the caller brings", async () => {
    const own = new GatewayMetrics();
    const { url } = await start({ endpoints: [a.address], handler: { metrics: own } });
    expect((await post(`${url}/v1/chat/completions`, chat())).status).toBe(200);
    const text = (await get(`${url}/metrics`)).text;
    expect(text).toContain('switchyard_gateway_requests_total{route="inference",code="200"} 1');
    expect(text).toMatch(/llm_d_epp_request_total\{model_name="__unknown__",target_model_name="__unknown__",fairness_id="default-flow",priority="0"\} 1/);
  });

  it("parses with the parsers the config's requestHandler names, and pools must agree on them", async () => {
    const head = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';
    const config = `${head}plugins:\n- type: queue-scorer\nrequestHandler:\n  parsers:\n  - pluginRef: openai-parser\n`;
    const { url } = await start({ config, endpoints: [a.address], scrapeMetrics: false });
    expect((await post(`${url}/v1/chat/completions`, chat())).status).toBe(200);
    // No anthropic-parser and no fallback in the list: the Messages API is not served.
    const messages = await post(`${url}/v1/messages`, { model: 'm1', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    expect(messages.status).toBe(400);
    expect(messages.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const pools = `${head}requestHandler:\n  parsers:\n  - pluginRef: openai-parser\ngateway:\n  pools:\n  - name: p1\n    endpoints: ["${a.address}"]\n    models: [m1]\n  - name: p2\n    endpoints: ["${b.address}"]\n    models: [m2]\n    config: { apiVersion: llm-d.ai/v1alpha1, kind: EndpointPickerConfig }\n`;
    await expect(createGatewayFromConfig({ config: pools, scrapeMetrics: false })).rejects.toThrow(/pools "p1" and "p2" name different requestHandler\.parsers \(openai-parser \/ the defaults\)/);
  });

  it("forwards to a data-parallel pod's primary port with the chosen rank in x-data-parallel-host-port", async () => {
    // Two ranks of one pod that only its primary port (the fake upstream) reaches.
    const primaryPort = Number(a.address.split(':')[1]);
    const rankAddresses = [await deadAddress(), await deadAddress()];
    const config = `apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: queue-scorer\n- type: data-parallel-profile-handler\n  parameters: { primaryPort: ${primaryPort} }\n`;
    const { url } = await start({ config, endpoints: rankAddresses, scrapeMetrics: false });
    const r = await post(`${url}/v1/chat/completions`, chat(), { 'x-data-parallel-host-port': '10.6.6.6:1' });
    expect(r.status).toBe(200);
    expect(r.headers['x-gateway-destination-endpoint-served']).toBe(a.address);
    const rank = a.received.at(-1)?.headers['x-data-parallel-host-port'];
    // The gateway's choice, never the client's copy.
    expect(rankAddresses).toContain(rank);
  });

  it("retries down the picker's fallbacks when its first choice refuses connections", async () => {
    const dead = await deadAddress();
    // A scorer that always ranks the dead endpoint first, and a picker that returns two targets.
    const preferDead = definePlugin({
      type: 'prefer-address',
      parameters: z.strictObject({ address: z.string() }),
      create: (params, c) => ({ type: 'prefer-address', name: c.name, score: (_ctx: unknown, _req: unknown, eps: readonly { id: string; address: string }[]) => new Map(eps.map((e) => [e.id, e.address === params.address ? 1 : 0])) }),
    });
    const config = `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: prefer-address
  parameters: { address: "${dead}" }
- type: max-score-picker
  parameters: { maxNumOfEndpoints: 2 }
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: prefer-address
  - pluginRef: max-score-picker
`;
    const { url } = await start({ config, endpoints: [dead, a.address], scrapeMetrics: false, plugins: [preferDead] });
    for (let i = 0; i < 3; i++) {
      const r = await post(`${url}/v1/chat/completions`, chat());
      expect(r.status).toBe(200);
      expect(r.headers['x-gateway-destination-endpoint-served']).toBe(a.address);
    }
    expect((await get(`${url}/metrics`)).text).toMatch(/switchyard_gateway_retries_total\{pool="default"\} 3/);
  });

  it('closes the plugins it created when a pool cannot be built, so they hold no sockets', async () => {
    let closed = 0;
    const holder = definePlugin({
      type: 'socket-holder',
      parameters: z.strictObject({}),
      create: (_params, c) => ({ type: 'socket-holder', name: c.name, score: () => new Map<string, number>(), close: () => { closed++; } }),
    });
    const config = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nfeatureGates: [flowControl]\nflowControl: { maxRequests: -1 }\nplugins:\n- type: socket-holder\ngateway:\n  endpoints: ["127.0.0.1:9"]\n';
    await expect(createGatewayFromConfig({ config, plugins: [holder] })).rejects.toThrow(/^pool "default": .*maxRequests/);
    await vi.waitFor(() => {
      expect(closed).toBe(1);
    });
  });

  it("scrapes where the pool's llm-d data layer says: path, port, interval and engine mappings", async () => {
    // A metrics server apart from the model server, on another port and path, with a custom
    // queue metric that only the config's extractor mapping knows.
    const paths: string[] = [];
    const port = await startExporter((req, res) => {
      paths.push(String(req.url));
      if (req.url !== '/engine/metrics') {
        res.writeHead(404).end();
        return;
      }
      res.end('# TYPE mine_waiting gauge\nmine_waiting{kind="queued"} 7\n# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 3\n');
    });
    const config = `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: metrics-data-source
  parameters: { path: /engine/metrics, port: ${port}, interval: 100ms }
- type: core-metrics-extractor
  parameters:
    engineConfigs:
    - name: vllm
      queuedRequestsSpec: "mine_waiting{kind=queued}"
      runningRequestsSpec: "vllm:num_requests_running"
gateway:
  endpoints: ["${a.address}"]
`;
    const clock = new ManualClock();
    const { gw } = await start({ config, clock });
    const source = gw.pools[0]?.source;
    await vi.waitFor(() => {
      expect(source?.list()[0]?.metrics).toMatchObject({ waitingQueueSize: 7, runningRequestsSize: 3 });
    });
    expect(paths.every((p) => p === '/engine/metrics')).toBe(true);
    // The next poll is due one configured interval after the first (the clock has not moved).
    expect(clock.nextTimerAt()).toBe(100);
  });

  it('reports failing metrics polls once per outage in the log, and each one in /metrics', async () => {
    let healthy = false;
    const port = await startExporter((_req, res) => {
      if (!healthy) {
        res.writeHead(503).end();
        return;
      }
      res.end('# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting 2\n');
    });
    const config = `apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: metrics-data-source\n  parameters: { port: ${port} }\ngateway:\n  endpoints: ["127.0.0.1:9"]\n`;
    const lines: string[] = [];
    const { url } = await start({ config, log: (line) => lines.push(line) });
    const errors = async (): Promise<number> => Number(/switchyard_gateway_metrics_scrape_errors_total\{pool="default",reason="unavailable"\} (\d+)/.exec((await get(`${url}/metrics`)).text)?.[1] ?? 0);
    await vi.waitFor(async () => {
      expect(await errors()).toBeGreaterThanOrEqual(2);
    }, { timeout: 5000 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^pool "default": metrics scrape of endpoint "127\.0\.0\.1:9" \(http:\/\/127\.0\.0\.1:\d+\/metrics\) failed: HTTP 503; scheduling sees no fresh metrics for it, retrying with backoff$/);
    healthy = true;
    await vi.waitFor(() => {
      expect(lines).toHaveLength(2);
    }, { timeout: 5000 });
    expect(lines[1]).toBe('pool "default": metrics of endpoint "127.0.0.1:9" are back');
  });

  it('scrapes an https metrics source with the CA file its config names', async () => {
    const port = await startExporter((_req, res) => {
      res.end('# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting 5\n');
    }, true);
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-tls-'));
    try {
      const caPath = join(dir, 'ca.pem');
      await writeFile(caPath, TEST_CERT);
      const config = (params: string): string =>
        `apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: metrics-data-source\n  parameters: { scheme: https, port: ${port}, ${params} }\ngateway:\n  endpoints: ["127.0.0.1:9"]\n`;
      const { gw } = await start({ config: config(`insecureSkipVerify: false, caCertPath: "${caPath}"`) });
      await vi.waitFor(() => {
        expect(gw.pools[0]?.source.list()[0]?.metrics?.waitingQueueSize).toBe(5);
      });
      const missing = join(dir, 'missing.pem');
      await expect(createGatewayFromConfig({ config: config(`caCertPath: "${missing}"`) })).rejects.toThrow(
        `pool "default": metrics-data-source "metrics-data-source": caCertPath "${missing}" cannot be read`,
      );
      // Without scraping the certificate files are not needed.
      await (await createGatewayFromConfig({ config: config(`caCertPath: "${missing}"`), scrapeMetrics: false })).close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ config: 'gateway:\n  failureMode: Sometimes\n  endpoints: ["127.0.0.1:1"]' }, /gateway\.failureMode/],
    [{ config: 'gateway:\n  endpoints: ["127.0.0.1:1"]\n  pools: []' }, /gateway\.endpoints: give either/],
    [{ config: 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n  - type: no-such-scorer\ngateway:\n  endpoints: ["127.0.0.1:1"]' }, /no-such-scorer/],
    [{ config: 'gateway: {}' }, /no model servers/],
    // The document's own error wins over the missing endpoints.
    [{ config: 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n  - type: no-such-scorer\n' }, /no-such-scorer/],
    [{ config: 'gateway:\n  endpoints: ["127.0.0.1:1"]\n  trust:\n    trustedClients: ["10.0.0.1", "not-an-ip"]' }, /gateway\.trust\.trustedClients\[1\].*not-an-ip/],
    [{ config: 'gateway:\n  endpoints: ["127.0.0.1:1"]\n  trust:\n    trustedClients: ["fd00::/129"]' }, /trustedClients\[0\]/],
    [{ config: 'gateway:\n  pools:\n    - name: p\n      endpoints: ["127.0.0.1:1"]\n      models: [m]\n    - name: q\n      endpoints: ["127.0.0.1:2"]\n      models: [m]' }, /"m" is already served by pool "p"/],
    [{ config: 'a: [1, 2' }, /invalid YAML/],
    // The section's handler options are checked by the handler's own rules, before anything starts.
    [{ config: 'gateway:\n  endpoints: ["127.0.0.1:1"]\n  upstream:\n    maxAttempts: 0' }, /^config: gateway\.upstream\.maxAttempts: must be an integer from 1 to 10, got 0$/],
    [{ config: 'gateway:\n  endpoints: ["127.0.0.1:1"]\n  maxBodyBytes: 1.5' }, /^config: gateway\.maxBodyBytes: must be an integer ≥ 1, got 1\.5$/],
    [{ config: 'gateway:\n  endpoints: ["127.0.0.1:1"]\n  shutdownGraceMs: -1' }, /^config: gateway\.shutdownGraceMs: must be a number ≥ 0, got -1$/],
    // The circuit breaker's numbers by the rotation's rules: out of range is an error, not clamped.
    [{ config: 'gateway:\n  endpoints: ["127.0.0.1:1"]\n  circuitBreaker:\n    failureThreshold: 0' }, /^config: gateway\.circuitBreaker\.failureThreshold: must be an integer ≥ 1, got 0$/],
    [{ config: 'gateway:\n  endpoints: ["127.0.0.1:1"]\n  circuitBreaker:\n    enabled: false\n    cooldownMs: -1' }, /^config: gateway\.circuitBreaker\.cooldownMs: must be a number ≥ 0, got -1$/],
  ])('rejects a bad config with a message naming the problem (%#)', async (options, message) => {
    await expect(createGatewayFromConfig(options)).rejects.toThrow(message);
  });
});

describe('switchyard-gateway CLI', () => {
  let up: FakeUpstream;
  beforeAll(async () => {
    up = await startFakeUpstream('cli');
  });
  afterAll(async () => {
    await up.close();
  });

  it('starts from --endpoints, serves, and shuts down', async () => {
    const err: string[] = [];
    const result = await runGatewayCli(['--endpoints', up.address, '--port', '0', '--host', '127.0.0.1'], { out: () => undefined, err: (l) => err.push(l) });
    if (result.kind !== 'running') throw new Error(`CLI exited: ${err.join('\n')}`);
    expect(err[0]).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+; pools: default \(1 endpoints\)/);
    expect((await post(`${result.url}/v1/completions`, { model: 'x', prompt: 'hi' })).status).toBe(200);
    await result.gateway.close();
  });

  it('runs the switchyard routing profile with --profile switchyard', async () => {
    const err: string[] = [];
    const result = await runGatewayCli(['--profile', 'switchyard', '--endpoints', up.address, '--port', '0', '--host', '127.0.0.1'], { out: () => undefined, err: (l) => err.push(l) });
    if (result.kind !== 'running') throw new Error(`CLI exited: ${err.join('\n')}`);
    const types = [...(result.gateway.pools[0]?.config.plugins.values() ?? [])].map((p) => p.type);
    expect(types).toEqual(expect.arrayContaining(['estimated-ttft-scorer', 'approx-prefix-cache-producer']));
    expect(types).not.toContain('queue-scorer');
    expect((await post(`${result.url}/v1/completions`, { model: 'x', prompt: 'hi' })).status).toBe(200);
    await result.gateway.close();
  });

  it('prints help, and explains bad flags and unreadable files', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    expect(await runGatewayCli(['--help'], io)).toEqual({ kind: 'exit', code: 0 });
    expect(out.join('')).toContain('--endpoints');
    expect(await runGatewayCli(['--port', 'x'], io)).toEqual({ kind: 'exit', code: 2 });
    expect(await runGatewayCli(['--config', '/nonexistent/epp.yaml'], io)).toEqual({ kind: 'exit', code: 2 });
    expect(err.join('\n')).toMatch(/--port.*\n.*--help[\s\S]*cannot read --config/);
  });
});
