import { describe, expect, it } from 'vitest';
import {
  EndpointPicker,
  EndpointPool,
  ManualClock,
  ObjectiveStore,
  SwitchyardError,
  admitterSaturation,
  createDefaultRegistry,
  loadConfig,
  parseRequest,
  probabilisticAdmitterParameters,
  rejectionProbability,
} from '@switchyard/core';
import { metrics } from '../../testing/index.js';

const defaults = probabilisticAdmitterParameters.parse(undefined);

const doc = `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: probabilistic-admitter
  parameters: {queueDepthThreshold: 5, kvCacheUtilThreshold: 0.8, power: 5, k: 300}
- type: queue-scorer
`;

const chat = (objective?: string) =>
  parseRequest({ path: '/v1/chat/completions', headers: objective === undefined ? {} : { 'x-llm-d-inference-objective': objective }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });

/** A picker over two endpoints each `waiting` deep in queue, whose random draws are `draw`. */
function picker(waiting: number, draw: number): EndpointPicker {
  const clock = new ManualClock();
  const pool = new EndpointPool();
  for (const id of ['a', 'b']) {
    pool.add({ id, address: `10.0.0.${id === 'a' ? 1 : 2}:8000` });
    pool.setMetrics(id, metrics({ waitingQueueSize: waiting, kvCacheUsagePercent: 0, updatedAt: clock.now() }));
  }
  const config = loadConfig(doc, { registry: createDefaultRegistry(), pool, clock });
  return new EndpointPicker({ pool, clock, config, random: () => draw, objectives: new ObjectiveStore([{ name: 'batch', priority: -1 }]), staleness: { policy: 'ignore' } });
}

describe('probabilistic-admitter', () => {
  it("computes llm-d's saturation and rejection probability", () => {
    const pool = new EndpointPool();
    const a = pool.add({ id: 'a', address: '10.0.0.1:8000' });
    pool.setMetrics('a', metrics({ waitingQueueSize: 1, kvCacheUsagePercent: 0.4 }));
    const b = pool.add({ id: 'b', address: '10.0.0.2:8000' });
    // b has no metrics and counts 1; a: max(1/5, 0.4/0.8) = 0.5.
    expect(admitterSaturation([pool.get('a') ?? a, b], defaults)).toBeCloseTo(0.75);
    expect(rejectionProbability(0.1, defaults)).toBeCloseTo(0.003);
    expect(rejectionProbability(0.5, defaults)).toBe(1);
  });

  it('sheds a sheddable request when the draw falls under the probability, with HTTP 500', async () => {
    // waiting 1 of 5 ⇒ s = 0.2, p = 0.2^5 × 300 = 0.096.
    const shed = await picker(1, 0.05).pick(chat('batch')).catch((e: unknown) => e);
    expect(shed).toBeInstanceOf(SwitchyardError);
    expect([(shed as SwitchyardError).code, (shed as SwitchyardError).status]).toEqual(['ADMISSION_DENIED', 500]);
    expect((shed as Error).message).toMatch(/^request cannot be admitted: probabilistic-admitter: rejected, saturation=0\.200 prob=0\.096/);
    const kept = await picker(1, 0.2).pick(chat('batch'));
    kept.complete({ kind: 'success' });
  });

  it('never sheds priority >= 0', async () => {
    const d = await picker(5, 0).pick(chat());
    d.complete({ kind: 'success' });
  });

  it('validates its parameters', () => {
    expect(probabilisticAdmitterParameters.safeParse({ power: 0 }).success).toBe(false);
    expect(probabilisticAdmitterParameters.safeParse({ queueDepthThreshold: 1.5 }).success).toBe(false);
    expect(probabilisticAdmitterParameters.safeParse({ kk: 1 }).success).toBe(false);
  });
});
