/*
 * Flow-control throughput: admit + grant + release with 1,000 flows in 3 bands.
 * Run: npx vitest bench --run packages/flow-control/bench/throughput.bench.ts
 * Prints its own table (best of 7 rounds of 200k requests per case, all in one process), as wall
 * clock rates and as rates per second of this process's CPU time (which discounts time the shared
 * machine gave to other processes), then vitest's table for the same cases in batches of 1,000.
 */
import { bench, describe } from 'vitest';
import {
  AttributeMap,
  EndpointPool,
  createConcurrencyDetector,
  createLegacyAdmissionController,
  systemClock,
  type AdmissionController,
  type AdmissionGrant,
  type InferenceRequest,
  type SchedulingRequest,
} from '@switchyard/core';
import { createFlowController, createRoundRobinFairness } from '@switchyard/flow-control';

const FLOWS = 1000;
const PRIORITIES = [100, 0, -10];
const OK = { kind: 'success' } as const;

function makeRequests(n: number): SchedulingRequest[] {
  return Array.from({ length: n }, (_, i) => {
    const request = { id: `b${i}`, byteSize: 1024, maxOutputTokens: 128, headers: {}, rawBody: new Uint8Array(0) } as unknown as InferenceRequest;
    return {
      request,
      id: `b${i}`,
      targetModel: 'm',
      fairnessId: `tenant-${i % FLOWS}`,
      objective: undefined,
      priority: PRIORITIES[i % PRIORITIES.length] ?? 0,
      sloTtftMs: undefined,
      sloTpotMs: undefined,
      receivedAt: 0,
      subsetHint: undefined,
      attributes: new AttributeMap(),
    };
  });
}

function pool(): EndpointPool {
  const p = new EndpointPool();
  for (let i = 0; i < 8; i++) p.add({ address: `10.5.0.${i + 1}:8000` });
  return p;
}

const requests = makeRequests(FLOWS * 3);
const detector = createConcurrencyDetector({ maxConcurrency: 1_000_000 });

/** The admission controllers compared (fresh per case). */
const cases: Record<string, () => AdmissionController> = {
  'floor: resolved promise of a shared grant': () => {
    const grant: AdmissionGrant = { release: () => undefined };
    return { admit: () => Promise.resolve(grant) };
  },
  'core legacy admission controller (baseline)': () => createLegacyAdmissionController({ pool: pool(), detector, clock: systemClock }),
  'flow control, unsaturated, metrics off': () =>
    createFlowController({ pool: pool(), detector, metrics: false, plugins: new Map([['rr', createRoundRobinFairness('rr')]]), config: { defaultPriorityBand: { fairnessPolicyRef: 'rr' } } }),
  'flow control, unsaturated, metrics on': () =>
    createFlowController({ pool: pool(), detector, plugins: new Map([['rr', createRoundRobinFairness('rr')]]), config: { defaultPriorityBand: { fairnessPolicyRef: 'rr' } } }),
};

/** Admits a batch of `batch` requests (one per flow and band), then releases every grant. */
async function batch(ctl: AdmissionController, offset: number, size: number): Promise<void> {
  const pending: Promise<AdmissionGrant>[] = new Array<Promise<AdmissionGrant>>(size);
  for (let i = 0; i < size; i++) pending[i] = ctl.admit(requests[(offset + i) % requests.length] as SchedulingRequest);
  for (const g of await Promise.all(pending)) g.release(OK);
}

/**
 * Saturated steady state: 256 grants held by a pool of 8 × 32 slots, 1,000 flows backlogged; each
 * step releases the oldest grant, which dispatches the next queued request, and admits a new one.
 */
function saturated(metrics: boolean): { step(i: number): Promise<void> } {
  const ctl = createFlowController({
    pool: pool(),
    detector: createConcurrencyDetector({ maxConcurrency: 32 }),
    metrics: metrics ? {} : false,
    plugins: new Map([['rr', createRoundRobinFairness('rr')]]),
    config: { defaultPriorityBand: { fairnessPolicyRef: 'rr' }, defaultNegativePriorityBand: { fairnessPolicyRef: 'rr' } },
  });
  const held: AdmissionGrant[] = [];
  let head = 0;
  const admit = (r: SchedulingRequest): void => {
    void ctl.admit(r).then((g) => held.push(g));
  };
  for (const r of requests) admit(r);
  return {
    async step(i: number) {
      const g = held[head];
      if (g !== undefined) {
        held[head++] = undefined as unknown as AdmissionGrant;
        g.release(OK);
      }
      admit(requests[i % requests.length] as SchedulingRequest);
      if ((i & 63) === 0) await Promise.resolve();
    },
  };
}

interface Rate {
  readonly wall: number;
  readonly cpu: number;
}

async function timeCase(name: string, run: (n: number) => Promise<void>, total: number): Promise<Rate> {
  let wall = Infinity;
  let cpu = Infinity;
  for (let round = 0; round < 7; round++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run(total);
    wall = Math.min(wall, performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1000);
  }
  const rate = { wall: total / (wall / 1000), cpu: total / (cpu / 1000) };
  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  console.log(`[throughput] ${name}: ${fmt(rate.wall)} req/s wall, ${fmt(rate.cpu)} req/s per CPU-second (best of 7 x ${total})`);
  return rate;
}

const TOTAL = 200_000;
const rates = new Map<string, Rate>();
for (const [name, make] of Object.entries(cases)) {
  const ctl = make();
  await batch(ctl, 0, 20_000); // warm-up
  rates.set(
    name,
    await timeCase(
      name,
      async (n) => {
        for (let done = 0; done < n; done += 1000) await batch(ctl, done, 1000);
      },
      TOTAL,
    ),
  );
}
for (const metrics of [false, true]) {
  const s = saturated(metrics);
  for (let i = 0; i < 20_000; i++) await s.step(i);
  let i = 20_000;
  const name = `flow control, saturated (queue + dispatch per request), metrics ${metrics ? 'on' : 'off'}`;
  rates.set(
    name,
    await timeCase(
      name,
      async (n) => {
        for (let k = 0; k < n; k++) await s.step(i++);
      },
      TOTAL,
    ),
  );
}
const base = rates.get('core legacy admission controller (baseline)') ?? { wall: 1, cpu: 1 };
for (const [name, rate] of rates) {
  console.log(`[throughput] ratio vs legacy baseline (wall / CPU): ${name}: ${(rate.wall / base.wall).toFixed(3)}x / ${(rate.cpu / base.cpu).toFixed(3)}x`);
}

describe('admit + release, batches of 1,000 requests over 1,000 flows x 3 bands', () => {
  for (const [name, make] of Object.entries(cases)) {
    const ctl = make();
    let offset = 0;
    bench(name, async () => {
      await batch(ctl, offset, 1000);
      offset += 1000;
    });
  }
});
