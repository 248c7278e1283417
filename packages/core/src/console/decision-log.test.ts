import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecisionLog, ManualClock, type DecisionRecord } from '@switchyard/core';

const record = (requestId: string): DecisionRecord => ({
  requestId,
  pool: 'p',
  at: 0,
  model: 'm',
  targetModel: 'm',
  fairnessId: 'f',
  priority: 0,
  endpoint: undefined,
  fallbacks: [],
  scheduleMs: undefined,
  totalMs: undefined,
  outcome: 'pending',
  error: undefined,
  usage: undefined,
  trace: undefined,
});

describe('DecisionLog', () => {
  it('keeps the newest `capacity` records, newest first, whatever is pushed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 100 }), (capacity, n) => {
        const log = new DecisionLog({ capacity, clock: new ManualClock() });
        for (let i = 0; i < n; i++) log.push(record(`r${i}`));
        const expected = Array.from({ length: Math.min(n, capacity) }, (_, k) => `r${n - 1 - k}`);
        expect(log.recent().map((r) => r.requestId)).toEqual(expected);
        expect(log.size).toBe(Math.min(n, capacity));
        expect(log.total).toBe(n);
        expect(log.recent(2).length).toBe(Math.min(2, n, capacity));
        if (n > 0) expect(log.find(`r${n - 1}`)?.requestId).toBe(`r${n - 1}`);
        if (n > capacity) expect(log.find('r0')).toBeUndefined();
      }),
    );
  });

  it('rejects a capacity that is not a positive integer, naming the field', () => {
    expect(() => new DecisionLog({ capacity: 0 })).toThrow(/capacity/);
    expect(() => new DecisionLog({ capacity: 1.5 })).toThrow(/capacity/);
  });
});
