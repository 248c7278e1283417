/*
 * Contract of the admission twins: the picker asks `admitNow` first and calls `admit` only when
 * it declines (returns undefined), so that pair must behave exactly like `admit` alone. Two
 * controllers in lockstep get the same random script (admissions in several bands and flows,
 * releases, cancellations, time, endpoints coming and going); one admits the picker's way, the
 * other through `admit` only. After every step both must have settled every request the same
 * way (granted, refused with the same code, or still waiting) and report the same stats.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createConcurrencyDetector, isSwitchyardError, type AdmissionGrant } from '@switchyard/core';
import { settle } from '@switchyard/core/testing';
import { createFlowController, createPriorityHoldback, createStaticUsageLimit, type FlowController } from '../index.js';
import { request } from '../test-support/flow-harness.js';

type Op =
  | { kind: 'admit'; priority: number; tenant: string; bytes: number; cancellable: boolean }
  | { kind: 'release'; pick: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'remove-endpoint' }
  | { kind: 'add-endpoint' };

const script: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('admit' as const), priority: fc.constantFrom(-10, 0, 100), tenant: fc.constantFrom('a', 'b'), bytes: fc.integer({ min: 0, max: 3000 }), cancellable: fc.boolean() }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2500 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'remove-endpoint' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'add-endpoint' as const }) },
  ),
  { maxLength: 60 },
);

/** How one request stands: granted, refused (with its code) or waiting. */
type Standing = 'waiting' | 'granted' | `refused ${string}`;

interface Entry {
  readonly abort: AbortController | undefined;
  standing: Standing;
  grant: AdmissionGrant | undefined;
  released: boolean;
}

/** One controller of the pair, with its own pool and clock. */
interface Side {
  readonly clock: ManualClock;
  readonly pool: EndpointPool;
  readonly ctl: FlowController;
  readonly entries: Entry[];
  endpoints: number;
}

/** Usage limits: one ceiling for every band, or lower ceilings for lower bands. */
type Limits = 'static' | 'holdback';

function side(slots: number, eviction: boolean, limits: Limits): Side {
  const clock = new ManualClock();
  const pool = new EndpointPool();
  const ctl = createFlowController({
    pool,
    clock,
    detector: createConcurrencyDetector({ maxConcurrency: slots }),
    metrics: false,
    usageLimitPolicy: limits === 'static' ? createStaticUsageLimit(1) : createPriorityHoldback({ minCeiling: 0.4 }),
    config: {
      maxRequests: 8,
      defaultRequestTTL: '3s',
      enableEviction: eviction,
      priorityBands: [{ priority: 100, maxRequests: 3 }, { priority: 0, maxRequests: 4, maxBytes: 6000 }, { priority: -10, maxRequests: 3 }],
    },
  });
  const s: Side = { clock, pool, ctl, entries: [], endpoints: 0 };
  addEndpoint(s);
  addEndpoint(s);
  return s;
}

function addEndpoint(s: Side): void {
  s.pool.add({ address: `10.7.0.${++s.endpoints}:8000` });
}

const refused = (e: unknown): Standing => `refused ${isSwitchyardError(e) ? e.code : String(e)}`;

/** Counts how often `admitNow` decided, so a test that never exercised it fails. */
const decided = { now: 0, deferred: 0 };

function admit(s: Side, op: Extract<Op, { kind: 'admit' }>, id: string, fast: boolean): void {
  const abort = op.cancellable ? new AbortController() : undefined;
  const e: Entry = { abort, standing: 'waiting', grant: undefined, released: false };
  s.entries.push(e);
  const r = request({ id, priority: op.priority, fairnessId: op.tenant, bytes: op.bytes });
  if (fast) {
    // The picker's way (EndpointPicker.pick): admitNow first, admit only when it declines.
    let now: AdmissionGrant | undefined;
    try {
      now = s.ctl.admitNow(r);
    } catch (err) {
      e.standing = refused(err);
      decided.now++;
      return;
    }
    if (now !== undefined) {
      e.grant = now;
      e.standing = 'granted';
      decided.now++;
      return;
    }
    decided.deferred++;
  }
  s.ctl.admit(r, abort === undefined ? {} : { signal: abort.signal }).then(
    (g) => {
      e.grant = g;
      e.standing = 'granted';
    },
    (err: unknown) => {
      e.standing = refused(err);
    },
  );
}

async function apply(s: Side, op: Op, id: string, fast: boolean): Promise<void> {
  switch (op.kind) {
    case 'admit':
      admit(s, op, id, fast);
      break;
    case 'release': {
      const held = s.entries.filter((e) => e.grant !== undefined && !e.released);
      const e = held[op.pick % Math.max(1, held.length)];
      if (e !== undefined) {
        e.released = true;
        e.grant?.release({ kind: 'success' });
      }
      break;
    }
    case 'cancel': {
      const waiting = s.entries.filter((e) => e.standing === 'waiting' && e.abort !== undefined);
      waiting[op.pick % Math.max(1, waiting.length)]?.abort?.abort();
      break;
    }
    case 'advance':
      s.clock.advance(op.ms);
      break;
    case 'remove-endpoint': {
      const first = s.pool.list()[0];
      if (first !== undefined) s.pool.remove(first.id);
      break;
    }
    case 'add-endpoint':
      addEndpoint(s);
  }
  await settle();
}

describe('admitNow agrees with admit (flow controller)', () => {
  it('admitNow-then-admit and admit alone settle every request alike under any script', async () => {
    await fc.assert(
      fc.asyncProperty(script, fc.integer({ min: 1, max: 3 }), fc.boolean(), fc.constantFrom<Limits>('static', 'holdback'), async (ops, slots, eviction, limits) => {
        const fast = side(slots, eviction, limits);
        const slow = side(slots, eviction, limits);
        for (const [i, op] of ops.entries()) {
          await apply(fast, op, `r${i}`, true);
          await apply(slow, op, `r${i}`, false);
          expect(fast.entries.map((e) => e.standing)).toEqual(slow.entries.map((e) => e.standing));
          expect(fast.ctl.stats()).toEqual(slow.ctl.stats());
        }
      }),
      { numRuns: 150 },
    );
    // The contract is only tested if admitNow both decided and declined along the way.
    expect(decided.now).toBeGreaterThan(0);
    expect(decided.deferred).toBeGreaterThan(0);
  });
});
