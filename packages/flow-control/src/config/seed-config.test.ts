import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  EndpointPicker,
  EndpointPool,
  ManualClock,
  createDefaultRegistry,
  definePlugin,
  isSwitchyardError,
  loadConfig,
  parseRequest,
  type Decision,
  type Scorer,
} from '@switchyard/core';
import { flowControlPack, flowControllerForConfig, type FlowController } from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';

const yaml = readFileSync(new URL('./testdata/llm-d-guide.yaml', import.meta.url), 'utf8');

// prefix-cache-scorer ships in @switchyard/prefix-index, which this package does not depend on;
// this stand-in only lets the guide's scheduling profile load (it scores every endpoint 0).
const prefixScorerStandIn = definePlugin({
  type: 'prefix-cache-scorer',
  parameters: z.strictObject({}).prefault({}),
  create: (_p, ctx): Scorer => ({ type: 'prefix-cache-scorer', name: ctx.name, score: (_c, _r, eps) => new Map(eps.map((e) => [e.id, 0])) }),
});

const PRIORITY: Readonly<Record<string, number>> = { 'premium-traffic': 100, 'standard-traffic': 0, 'best-effort-traffic': -10 };

interface Setup {
  readonly clock: ManualClock;
  readonly pool: EndpointPool;
  readonly fc: FlowController;
  readonly picker: EndpointPicker;
}

function setup(endpoints = 1): Setup {
  const clock = new ManualClock();
  const pool = new EndpointPool();
  for (let i = 0; i < endpoints; i++) pool.add({ address: `10.1.0.${i + 1}:8000` });
  const registry = createDefaultRegistry().registerAll([prefixScorerStandIn]).registerPack(flowControlPack);
  const loaded = loadConfig(yaml, { registry, pool, clock });
  const fc = flowControllerForConfig(loaded, { pool, clock });
  if (fc === undefined) throw new Error('the guide config enables the flowControl gate');
  const picker = new EndpointPicker({ pool, clock, config: loaded, admission: fc, objectives: { priorityOf: (n) => (n === undefined ? 0 : (PRIORITY[n] ?? 0)) } });
  return { clock, pool, fc, picker };
}

interface Call {
  decision: Decision | undefined;
  error: unknown;
}

function call(picker: EndpointPicker, objective: string, tenant = 'tenant-a'): Call {
  const c: Call = { decision: undefined, error: undefined };
  const body = JSON.stringify({ model: 'Qwen/Qwen3-32B', messages: [{ role: 'user', content: 'Hello' }] });
  const headers = { 'content-type': 'application/json', 'x-llm-d-inference-objective': objective, 'x-llm-d-inference-fairness-id': tenant };
  picker.pick(parseRequest({ path: '/v1/chat/completions', headers, body })).then(
    (d) => (c.decision = d),
    (e: unknown) => (c.error = e),
  );
  return c;
}

const codeOf = (c: Call): string | undefined => (isSwitchyardError(c.error) ? c.error.code : undefined);

describe('the llm-d flow-control guide config', () => {
  it('needs the flowControl feature gate', () => {
    const pool = new EndpointPool();
    const registry = createDefaultRegistry().registerAll([prefixScorerStandIn]).registerPack(flowControlPack);
    const withoutGate = loadConfig(yaml.replace('featureGates:\n- flowControl\n', 'featureGates: []\n'), { registry, pool });
    expect(withoutGate.featureGates).toEqual([]);
    expect(flowControllerForConfig(withoutGate, { pool })).toBeUndefined();
  });

  it('loads as written: bands 100/0/-10, quantities, TTL, eviction, round-robin + FCFS, concurrency detector at 132', () => {
    const { fc } = setup();
    const cfg = fc.config;
    expect(cfg).toMatchObject({ maxRequests: 1000, maxBytes: 10 * 2 ** 30, defaultRequestTtlMs: 60_000, noEndpointRequestTtlMs: 60_000, enableEviction: true });
    expect(cfg.bands.map((b) => [b.priority, b.maxRequests, b.maxBytes, b.fairness.type, b.ordering.type])).toEqual([
      [100, 500, 1e9, 'round-robin-fairness-policy', 'fcfs-ordering-policy'],
      [0, 200, 1e9, 'round-robin-fairness-policy', 'fcfs-ordering-policy'],
      [-10, 50, 1e9, 'round-robin-fairness-policy', 'fcfs-ordering-policy'],
    ]);
    expect(cfg.detector).toMatchObject({ type: 'concurrency-detector', params: { maxConcurrency: 132, concurrencyMode: 'requests', headroom: 0 } });
    expect(cfg.usageLimitPolicy.type).toBe('static-usage-limit-policy');
  });

  it('admits 132 requests per endpoint, then queues; a completion dispatches the next in the same turn', async () => {
    const { picker, fc } = setup();
    const running = Array.from({ length: 132 }, () => call(picker, 'standard-traffic'));
    const waiting = call(picker, 'standard-traffic');
    await settle();
    expect(running.every((c) => c.decision !== undefined)).toBe(true);
    expect(waiting.decision).toBeUndefined();
    expect(fc.stats().queuedRequests).toBe(1);
    running[0]!.decision!.complete({ kind: 'success' });
    await settle();
    expect(waiting.decision).toBeDefined();
  });

  it('holds 50 sheddable requests and sheds the 51st with 429 rejected-saturated; standard holds 200', async () => {
    const { picker } = setup();
    Array.from({ length: 132 }, () => call(picker, 'standard-traffic'));
    const batch = Array.from({ length: 51 }, () => call(picker, 'best-effort-traffic', 'batch-1'));
    const standard = Array.from({ length: 201 }, () => call(picker, 'standard-traffic'));
    await settle();
    expect(batch.slice(0, 50).every((c) => c.error === undefined)).toBe(true);
    expect(codeOf(batch[50]!)).toBe('REJECTED_SATURATED');
    expect(standard.slice(0, 200).every((c) => c.error === undefined)).toBe(true);
    expect(codeOf(standard[200]!)).toBe('REJECTED_SATURATED');
  });

  it('serves premium before standard before best-effort, round-robin across tenants', async () => {
    const { picker, fc } = setup();
    const running = Array.from({ length: 132 }, () => call(picker, 'standard-traffic'));
    await settle();
    const order: string[] = [];
    fc.on('dispatched', (r) => order.push(`${r.request.priority}/${r.request.fairnessId}`));
    call(picker, 'best-effort-traffic', 'batch-1');
    call(picker, 'standard-traffic', 'tenant-a');
    call(picker, 'standard-traffic', 'tenant-a');
    call(picker, 'standard-traffic', 'tenant-b');
    call(picker, 'premium-traffic', 'tenant-a');
    await settle();
    for (const c of running.slice(0, 5)) {
      c.decision!.complete({ kind: 'success' });
      await settle();
    }
    expect(order).toEqual(['100/tenant-a', '0/tenant-a', '0/tenant-b', '0/tenant-a', '-10/batch-1']);
  });

  it('expires queued requests after 60s with 429 rejected-ttl-expired', async () => {
    const { picker, clock } = setup();
    Array.from({ length: 132 }, () => call(picker, 'standard-traffic'));
    const late = call(picker, 'standard-traffic');
    await settle();
    clock.advance(60_000);
    await settle();
    expect(codeOf(late)).toBe('REJECTED_TTL_EXPIRED');
  });

  it('evicts in-flight best-effort work when premium is blocked (429 evicted)', async () => {
    const { picker, fc } = setup();
    const batch = Array.from({ length: 132 }, () => call(picker, 'best-effort-traffic', 'batch-1'));
    await settle();
    expect(batch.every((c) => c.decision?.revoked !== undefined)).toBe(true);
    const order: string[] = [];
    fc.on('revoked', (r) => order.push(r.request.id));
    const premium = call(picker, 'premium-traffic');
    await settle();
    const revoked = batch.filter((c) => c.decision?.revoked?.aborted === true);
    // At most two revocations awaiting reclaim (llm-d's per-decision cap), newest dispatch first.
    expect(revoked).toEqual([batch[130], batch[131]]);
    expect(order).toEqual([batch[131]!.decision!.request.id, batch[130]!.decision!.request.id]);
    const reason: unknown = revoked[0]!.decision!.revoked!.reason;
    expect(isSwitchyardError(reason) && [reason.status, reason.reason]).toEqual([429, 'evicted']);
    revoked[0]!.decision!.complete({ kind: 'cancelled' });
    await settle();
    expect(premium.decision).toBeDefined();
    expect(fc.stats().pendingRevocations).toBe(1);
  });
});
