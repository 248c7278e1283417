/*
 * The Gateway API Inference Extension's hermetic ext_proc cases, replayed over real gRPC against
 * the real EndpointPicker: pod i is 192.168.1.(i+1):8000, metrics are (queue, kv, active adapters).
 */
import {
  EndpointPicker,
  EndpointPool,
  ManualClock,
  ModelRewriteStore,
  ObjectiveStore,
  createDefaultRegistry,
  createSchedulerConfig,
  type Scorer,
} from '@switchyard/core';
import { startEppServer, type EppServer } from '@switchyard/envoy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../test-support/transports.js';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { chunkOf, describeReplies, reqBody, reqHeaders, setHeaders, subsetHint } from '../test-support/wire-helpers.js';

type Pod = readonly [queue: number, kv: number, adapters?: readonly string[]];

const clock = new ManualClock();
const pool = new EndpointPool();
const objectives = new ObjectiveStore([
  { name: 'my-model', priority: 2 },
  { name: 'sql-lora', priority: 2 },
  { name: 'sql-lora-sheddable', priority: 0 },
  { name: 'direct-model', priority: 2 },
  { name: 'batch', priority: -1 },
]);
const rewrites = new ModelRewriteStore([{ name: 'rw', rules: [{ matches: ['model-to-be-rewritten'], targets: [{ modelRewrite: 'rewritten-model' }] }] }]);

function usePods(pods: readonly Pod[]): void {
  pool.replaceAll(pods.map((_, i) => ({ address: `192.168.1.${i + 1}:8000` })));
  pods.forEach(([queue, kv, adapters], i) => {
    pool.setMetrics(`192.168.1.${i + 1}:8000`, {
      waitingQueueSize: queue,
      runningRequestsSize: 0,
      kvCacheUsagePercent: kv,
      activeModels: adapters ?? [],
      waitingModels: [],
      maxActiveModels: 0,
      cacheBlockSize: 16,
      cacheNumBlocks: 1000,
      updatedAt: clock.now(),
    });
  });
}

/** The hermetic fixture's scoring: queue + kv + LoRA affinity, equal weights. */
function hermeticPicker(): EndpointPicker {
  const registry = createDefaultRegistry();
  const scorer = (type: string): Scorer => {
    const def = registry.get(type);
    if (def === undefined) throw new Error(`missing ${type}`);
    return def.create(def.parameters.parse({}), { name: type, clock, pool, lookup: () => undefined }) as Scorer;
  };
  const config = createSchedulerConfig({
    profiles: [{ scorers: ['queue-scorer', 'kv-cache-utilization-scorer', 'lora-affinity-scorer'].map(scorer) }],
    registry,
    pool,
    clock,
  });
  return new EndpointPicker({ pool, config, clock, objectives, rewrites, random: () => 0 });
}

describe.each(TRANSPORTS)('%s transport', (transport) => {
  let hermetic: EppServer;
  let defaults: EppServer;
  let envoyHermetic: EnvoyEmulator;
  let envoyDefaults: EnvoyEmulator;

  beforeAll(async () => {
    // llm-d's deployment: the EPP behind Envoy trusts the classification headers it forwards.
    hermetic = await startEppServer({ transport, scheduler: hermeticPicker(), pool, host: '127.0.0.1', port: 0, trustClassificationHeaders: true });
    defaults = await startEppServer({ transport, scheduler: new EndpointPicker({ pool, clock, objectives }), pool, host: '127.0.0.1', port: 0, trustClassificationHeaders: true });
    envoyHermetic = new EnvoyEmulator(hermetic.port);
    envoyDefaults = new EnvoyEmulator(defaults.port);
  });

  afterAll(async () => {
    envoyHermetic.close();
    envoyDefaults.close();
    await Promise.all([hermetic.close(1000), defaults.close(1000)]);
  });

  interface Case {
    readonly objective: string;
    readonly rewrite?: string;
    readonly prompt: string;
    readonly split?: number;
    readonly hint?: readonly string[];
  }

  async function run(envoy: EnvoyEmulator, c: Case, model = c.objective) {
    const headers: Record<string, string> = { ':method': 'POST', ':path': '/v1/completions', hi: 'mom', 'x-gateway-inference-objective': c.objective, 'x-request-id': 'test-request-id' };
    if (c.rewrite !== undefined) headers['x-gateway-model-name-rewrite'] = c.rewrite;
    const body = `{"max_tokens":100,"model":"${model}","prompt":"${c.prompt}","temperature":0}`;
    const s = envoy.open();
    s.send(reqHeaders(headers, false, c.hint === undefined ? undefined : subsetHint(c.hint)));
    if (c.split === undefined) s.send(reqBody(body, true));
    else {
      s.send(reqBody(body.slice(0, c.split), false));
      s.send(reqBody(body.slice(c.split), true));
    }
    const first = await s.waitFor(1);
    const replies = first[0]?.immediate_response === undefined ? await s.waitFor(2) : first;
    s.cancel();
    return replies;
  }

  async function pickOf(envoy: EnvoyEmulator, c: Case, model?: string): Promise<{ dest: string; body: string; headers: Record<string, string> }> {
    const replies = await run(envoy, c, model);
    expect(describeReplies(replies)).toEqual(['request_headers', expect.stringMatching(/^request_body\(\d+,eos\)$/)]);
    const headers = setHeaders(replies[0]!.request_headers!.response.header_mutation);
    const dest = headers['x-gateway-destination-endpoint'] ?? '';
    expect(replies[0]!.dynamic_metadata?.fields?.['envoy.lb']?.structValue?.fields?.['x-gateway-destination-endpoint']?.stringValue).toBe(dest);
    return { dest, body: chunkOf(replies[1]!).body, headers };
  }

  describe('GAIE hermetic cases with the real picker', () => {
    it('default scorers: (3,.2) (0,.1) (10,.2) → the second pod, with the rewritten body and exact headers', async () => {
      usePods([[3, 0.2], [0, 0.1], [10, 0.2]]);
      const r = await pickOf(envoyDefaults, { objective: 'my-model', rewrite: 'my-model-12345', prompt: 'test1' });
      expect(r.dest).toBe('192.168.1.2:8000');
      expect(r.body).toBe('{"max_tokens":100,"model":"my-model-12345","prompt":"test1","temperature":0}');
      expect(r.headers).toEqual({ 'x-gateway-destination-endpoint': '192.168.1.2:8000', 'content-length': '76', hi: 'mom', 'x-request-id': 'test-request-id' });
    });

    it.each([
      ['test2', [[0, 0.2], [0, 0.1, ['sql-lora-1fdg2']], [10, 0.2]], '192.168.1.2:8000'],
      ['test3', [[10, 0.2], [10, 0.4, ['sql-lora-1fdg2']], [10, 0.3]], '192.168.1.2:8000'],
      ['test4', [[6, 0.2, ['sql-lora-1fdg2']], [0, 0.85], [10, 0.9]], '192.168.1.1:8000'],
    ] as const)('LoRA affinity %s → %s', async (prompt, pods, expected) => {
      usePods(pods);
      const r = await pickOf(envoyHermetic, { objective: 'sql-lora', rewrite: 'sql-lora-1fdg2', prompt });
      expect(r.dest).toBe(expected);
      expect(JSON.parse(r.body)).toMatchObject({ model: 'sql-lora-1fdg2' });
    });

    it('a body split inside the model name, sheddable objective not shed', async () => {
      usePods([[4, 0.2, ['sql-lora-1fdg3']], [4, 0.85, ['sql-lora-1fdg3']], [10, 0.9, ['sql-lora-1fdg3']]]);
      const r = await pickOf(envoyHermetic, { objective: 'sql-lora-sheddable', rewrite: 'sql-lora-1fdg3', prompt: 'test6', split: 32 });
      expect(r.dest).toBe('192.168.1.1:8000');
      expect(JSON.parse(r.body)).toMatchObject({ model: 'sql-lora-1fdg3' });
    });

    it('direct model passthrough with a split body keeps the model', async () => {
      usePods([[4, 0.2], [0, 0.85], [10, 0.9]]);
      const r = await pickOf(envoyHermetic, { objective: 'direct-model', prompt: 'test7', split: 10 });
      expect(r.dest).toBe('192.168.1.1:8000');
      expect(r.body).toBe('{"max_tokens":100,"model":"direct-model","prompt":"test7","temperature":0}');
    });

    it('an InferenceModelRewrite rule rewrites the model', async () => {
      usePods([[0, 0.1, ['rewritten-model']]]);
      const r = await pickOf(envoyHermetic, { objective: 'my-model', prompt: 'test8' }, 'model-to-be-rewritten');
      expect(r.dest).toBe('192.168.1.1:8000');
      expect(JSON.parse(r.body)).toMatchObject({ model: 'rewritten-model' });
    });

    it.each([
      [['192.168.1.1:8000', '192.168.1.2:8000', '192.168.1.3:8000'], '192.168.1.2:8000'],
      [['192.168.1.3:8000'], '192.168.1.3:8000'],
    ] as const)('subset hint %j → %s', async (hint, expected) => {
      usePods([[0, 0.2], [0, 0.1, ['sql-lora-1fdg2']], [10, 0.2]]);
      const r = await pickOf(envoyHermetic, { objective: 'sql-lora', rewrite: 'sql-lora-1fdg2', prompt: 'test2', hint });
      expect(r.dest).toBe(expected);
    });

    async function immediate(envoy: EnvoyEmulator, c: Case, model?: string) {
      const replies = await run(envoy, c, model);
      expect(replies).toHaveLength(1);
      const imm = replies[0]!.immediate_response!;
      return { status: imm.status.code, reason: setHeaders(imm.headers)['x-llm-d-request-dropped-reason'] };
    }

    it('a subset hint matching no pod → 503', async () => {
      usePods([[0, 0.2], [0, 0.1], [10, 0.2]]);
      expect(await immediate(envoyHermetic, { objective: 'sql-lora', prompt: 'x', hint: ['192.168.1.4:8000', '192.168.1.5:8000'] })).toEqual({ status: 503, reason: 'rejected-no-endpoints' });
      expect(await immediate(envoyHermetic, { objective: 'sql-lora', prompt: 'x', hint: [] })).toEqual({ status: 503, reason: 'rejected-no-endpoints' });
    });

    it('no endpoints → 503 rejected-no-endpoints', async () => {
      usePods([]);
      expect(await immediate(envoyDefaults, { objective: 'my-model', prompt: 'x' })).toEqual({ status: 503, reason: 'rejected-no-endpoints' });
    });

    it('a sheddable request while the pool is saturated → 429', async () => {
      usePods([[10, 0.9], [10, 0.95]]);
      expect((await immediate(envoyDefaults, { objective: 'batch', prompt: 'x' })).status).toBe(429);
      // The same pool still serves non-sheddable traffic.
      expect((await pickOf(envoyDefaults, { objective: 'my-model', prompt: 'x' })).dest).toMatch(/^192\.168\.1\.\d:8000$/);
    });

    it('bad JSON and a body without a model → 400', async () => {
      usePods([[0, 0.1]]);
      for (const body of ['no healthy upstream', '{"hello":"world"}', '{"prompt":"hello world"}']) {
        const s = envoyDefaults.open();
        s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions' }));
        s.send(reqBody(body, true));
        const [reply] = await s.waitFor(1);
        expect(reply!.immediate_response!.status.code).toBe(400);
        expect(Buffer.from(reply!.immediate_response!.body!).toString()).toMatch(/inference error: BAD_REQUEST - /);
        await s.ended;
      }
    });
  });
});
