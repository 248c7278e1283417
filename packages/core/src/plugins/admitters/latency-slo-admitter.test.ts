import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Attributes,
  EndpointPicker,
  EndpointPool,
  ManualClock,
  ObjectiveStore,
  SwitchyardError,
  createDefaultRegistry,
  definePlugin,
  loadConfig,
  parseRequest,
  type LatencyPrediction,
} from '@switchyard/core';
import { metrics } from '../../testing/index.js';

const doc = `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: latency-slo-admitter
  parameters: {latencyPredictionInfoProducerName: predicted-latency-producer}
- type: predicted-latency-producer
- type: queue-scorer
`;

/** Stands in for the learned predictor: every endpoint is predicted `ttftMs` / `tpotMs` (none when undefined). */
function fixedPredictions(ttftMs: number | undefined, tpotMs = 10) {
  return definePlugin({
    type: 'predicted-latency-producer',
    produces: [Attributes.predictedLatency.name],
    defaultProducerFor: [Attributes.predictedLatency.name],
    parameters: z.strictObject({}).prefault({}),
    create: (_p, ctx) => ({
      type: 'predicted-latency-producer',
      name: ctx.name,
      produces: [Attributes.predictedLatency.name],
      consumes: [],
      produce(_c: unknown, request: { attributes: { set(k: typeof Attributes.predictedLatency, v: Map<string, LatencyPrediction>): void } }, endpoints: readonly { id: string }[]) {
        if (ttftMs !== undefined) request.attributes.set(Attributes.predictedLatency, new Map(endpoints.map((e) => [e.id, { ttftMs, tpotMs }])));
      },
    }),
  });
}

interface Setup {
  readonly ttftMs?: number | undefined;
  readonly running?: number;
  readonly kv?: number;
}

/** Outcome of one request through a picker loaded from `doc`: 'admitted' or the denial message. */
async function outcome(setup: Setup, headers: Record<string, string>): Promise<string> {
  const clock = new ManualClock();
  const pool = new EndpointPool();
  for (const id of ['a', 'b']) {
    pool.add({ id, address: `10.0.0.${id === 'a' ? 1 : 2}:8000` });
    pool.setMetrics(id, metrics({ runningRequestsSize: setup.running ?? 3, kvCacheUsagePercent: setup.kv ?? 0.5, updatedAt: clock.now() }));
  }
  const registry = createDefaultRegistry().register(fixedPredictions('ttftMs' in setup ? setup.ttftMs : 500), { replace: true });
  const config = loadConfig(doc, { registry, pool, clock });
  const picker = new EndpointPicker({ pool, clock, config, objectives: new ObjectiveStore([{ name: 'batch', priority: -1 }]), staleness: { policy: 'ignore' } });
  const req = parseRequest({ path: '/v1/chat/completions', headers, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
  try {
    const d = await picker.pick(req);
    d.complete({ kind: 'cancelled' });
    return 'admitted';
  } catch (err) {
    if (err instanceof SwitchyardError) return `${err.status} ${err.message}`;
    throw err;
  }
}

const sheddable = { 'x-llm-d-inference-objective': 'batch' };

describe('latency-slo-admitter', () => {
  it('denies a sheddable request whose SLO no busy, warm candidate is predicted to meet (HTTP 500, as llm-d)', async () => {
    const denied = await outcome({}, { ...sheddable, 'x-llm-d-slo-ttft-ms': '100' });
    expect(denied).toMatch(/^500 .*no valid endpoint available to serve the request/);
    expect(await outcome({}, { ...sheddable, 'x-slo-tpot-ms': '5' })).toMatch(/^500 /);
  });

  it('admits when a candidate meets the SLO, is idle or cold, or nothing is predicted', async () => {
    const slo = { ...sheddable, 'x-llm-d-slo-ttft-ms': '100' };
    expect(await outcome({ ttftMs: 80 }, slo)).toBe('admitted');
    expect(await outcome({ running: 0 }, slo)).toBe('admitted');
    expect(await outcome({ kv: 0.01 }, slo)).toBe('admitted');
    expect(await outcome({ ttftMs: undefined }, slo)).toBe('admitted');
  });

  it('never denies priority ≥ 0, or a request without a positive SLO header', async () => {
    expect(await outcome({}, { 'x-llm-d-slo-ttft-ms': '100' })).toBe('admitted');
    expect(await outcome({}, sheddable)).toBe('admitted');
    expect(await outcome({}, { ...sheddable, 'x-llm-d-slo-ttft-ms': '-5' })).toBe('admitted');
    expect(await outcome({}, { ...sheddable, 'x-llm-d-slo-ttft-ms': 'soon' })).toBe('admitted');
  });

  it('rejects an unknown parameter with a suggestion', () => {
    const bad = doc.replace('latencyPredictionInfoProducerName:', 'latencyPredictionProducerName:');
    expect(() => loadConfig(bad, { registry: createDefaultRegistry(), pool: new EndpointPool() })).toThrow(/latencyPredictionProducerName.*latencyPredictionInfoProducerName/s);
  });
});
