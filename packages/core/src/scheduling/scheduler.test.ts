import { describe, expect, it } from 'vitest';
import {
  Attributes,
  Scheduler,
  SwitchyardError,
  createSchedulerConfig,
  decodeFilterPlugin,
  kvCacheUtilizationScorerPlugin,
  queueScorerPlugin,
  tokenLoadScorerPlugin,
  type DataProducer,
  type Filter,
  type Scorer,
} from '@switchyard/core';
import { cycleContext, instantiate, poolOf, schedulingRequest } from '../testing/index.js';

const queue = () => instantiate(queueScorerPlugin) as Scorer;
const kv = () => instantiate(kvCacheUtilizationScorerPlugin) as Scorer;

describe('Scheduler', () => {
  const pool = poolOf(3, (i) => [{ waitingQueueSize: 10, kvCacheUsagePercent: 0 }, { waitingQueueSize: 0, kvCacheUsagePercent: 0.9 }, { waitingQueueSize: 5, kvCacheUsagePercent: 0.2 }][i]);

  it('sums weight × clamped score and picks the best', () => {
    const config = createSchedulerConfig({ profiles: [{ scorers: [{ scorer: queue(), weight: 2 }, { scorer: kv(), weight: 2 }] }] });
    const result = new Scheduler(config).schedule(cycleContext(), schedulingRequest(), pool.list());
    // totals: e0 = 2·0 + 2·1 = 2; e1 = 2·1 + 2·0.1 = 2.2; e2 = 2·0.5 + 2·0.8 = 2.6
    expect(result.primaryProfileName).toBe('default');
    expect(result.profileResults.get('default')?.targets.map((e) => e.id)).toEqual(['e2']);
    expect(result.profileResults.get('default')?.scored.map((s) => Number(s.score.toFixed(6)))).toEqual([2, 2.2, 2.6]);
  });

  it('clamps out-of-range scores and counts missing endpoints as 0', () => {
    const wild: Scorer = { type: 'wild', name: 'wild', score: () => new Map([['e0', 7], ['e1', -3]]) };
    const config = createSchedulerConfig({ profiles: [{ scorers: [wild] }] });
    const ctx = cycleContext({ trace: true });
    const result = new Scheduler(config).schedule(ctx, schedulingRequest(), pool.list());
    expect(result.profileResults.get('default')?.scored.map((s) => s.score)).toEqual([1, 0, 0]);
    expect(ctx.trace?.trace.profiles[0]?.scorers[0]?.scores).toEqual({ e0: 1, e1: 0, e2: 0 });
  });

  it('records candidates, removed endpoints, raw and weighted scores and the pick in the trace', () => {
    const odd: Filter = { type: 'odd', name: 'no-e1', filter: (_c, _r, eps) => eps.filter((e) => e.id !== 'e1') };
    const config = createSchedulerConfig({ profiles: [{ filters: [odd], scorers: [{ scorer: queue(), weight: 3 }] }] });
    const ctx = cycleContext({ trace: true });
    new Scheduler(config).schedule(ctx, schedulingRequest(), pool.list());
    const p = ctx.trace?.trace.profiles[0];
    expect(p?.candidates).toEqual(['e0', 'e1', 'e2']);
    expect(p?.filters).toEqual([{ name: 'no-e1', removed: ['e1'] }]);
    expect(p?.scorers).toEqual([{ name: 'queue-scorer', weight: 3, scores: { e0: 0, e2: 1 }, weighted: { e0: 0, e2: 3 } }]);
    expect(p?.totals).toEqual({ e0: 0, e2: 3 });
    expect(p?.picked).toEqual(['e2']);
  });

  it('fails with 429 rejected-saturated naming the filter that emptied the profile', () => {
    const none: Filter = { type: 'none', name: 'drop-all', filter: () => [] };
    const config = createSchedulerConfig({ profiles: [{ filters: [none], scorers: [queue()] }] });
    let error: unknown;
    try {
      new Scheduler(config).schedule(cycleContext(), schedulingRequest(), pool.list());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SwitchyardError);
    expect((error as SwitchyardError).status).toBe(429);
    expect((error as SwitchyardError).reason).toBe('rejected-saturated');
    expect((error as SwitchyardError).message).toContain('drop-all');
  });

  it('keeps only decode-capable endpoints with the decode filter', () => {
    const labelled = poolOf(3, undefined, (i) => ({ 'llm-d.ai/role': ['prefill', 'decode', 'prefill'][i] ?? '' }));
    const config = createSchedulerConfig({ profiles: [{ filters: [instantiate(decodeFilterPlugin) as Filter] }] });
    const result = new Scheduler(config).schedule(cycleContext(), schedulingRequest(), labelled.list());
    expect(result.profileResults.get('default')?.targets.map((e) => e.id)).toEqual(['e1']);
  });

  it('runs producers in dependency order, records their errors in the trace and carries on', async () => {
    const order: string[] = [];
    const mk = (name: string, produces: string[], consumes: string[], fail = false): DataProducer => ({
      type: name,
      name,
      produces,
      consumes,
      produce: () => {
        order.push(name);
        if (fail) throw new Error(`${name} broke`);
      },
    });
    const asyncOne: DataProducer = { type: 'later', name: 'later', produces: ['z'], consumes: ['y'], produce: async () => { order.push('later'); await Promise.resolve(); } };
    const errors: string[] = [];
    const config = createSchedulerConfig({ profiles: [{}], producers: [asyncOne, mk('second', ['y'], ['x'], true), mk('first', ['x'], [])] });
    const scheduler = new Scheduler(config, { onProducerError: (p) => errors.push(p.name) });
    const ctx = cycleContext({ trace: true });
    await scheduler.produce(ctx, schedulingRequest(), pool.list());
    expect(order).toEqual(['first', 'second', 'later']);
    expect(errors).toEqual(['second']);
    expect(ctx.trace?.trace.producers).toEqual([{ name: 'first' }, { name: 'second', error: 'second broke' }, { name: 'later' }]);
  });

  it('rejects producer cycles and consumed attributes nobody can produce', () => {
    const p = (name: string, produces: string[], consumes: string[]): DataProducer => ({ type: name, name, produces, consumes, produce: () => undefined });
    expect(() => createSchedulerConfig({ profiles: [{}], producers: [p('a', ['x'], ['y']), p('b', ['y'], ['x'])] })).toThrow(/dependency cycle: a .* → b/);
    const needy: Scorer = { type: 'needy', name: 'needy', consumes: ['nothing-makes-this'], score: () => new Map() };
    expect(() => createSchedulerConfig({ profiles: [{ scorers: [needy] }] })).toThrow(/consumes attribute "nothing-makes-this"/);
  });

  it('auto-creates the in-flight producer for token-load-scorer', async () => {
    const config = createSchedulerConfig({ profiles: [{ scorers: [instantiate(tokenLoadScorerPlugin) as Scorer] }] });
    expect(config.producers.map((p) => p.type)).toEqual(['inflight-load-producer']);
    const req = schedulingRequest();
    await new Scheduler(config).produce(cycleContext(), req, pool.list());
    expect(req.attributes.has(Attributes.inFlightLoad)).toBe(true);
  });

  it('samples plugin timings through the observer', () => {
    const seen: string[] = [];
    const config = createSchedulerConfig({ profiles: [{ scorers: [queue()] }] });
    const scheduler = new Scheduler(config, { observer: { sampleEvery: 2, record: (point, plugin) => seen.push(`${point}:${plugin.name}`) } });
    for (let i = 0; i < 4; i++) scheduler.schedule(cycleContext(), schedulingRequest(), pool.list(), scheduler.sampleObserver());
    expect(seen).toEqual(['Scorer:queue-scorer', 'Picker:max-score-picker', 'Scorer:queue-scorer', 'Picker:max-score-picker']);
  });
});
