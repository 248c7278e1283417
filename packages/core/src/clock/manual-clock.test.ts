import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock, sleep } from '@switchyard/core';

describe('ManualClock', () => {
  it('fires timers in due order and reports their due time as now()', () => {
    const clock = new ManualClock(10);
    const seen: [string, number][] = [];
    clock.setTimeout(() => seen.push(['b', clock.now()]), 50);
    clock.setTimeout(() => seen.push(['a', clock.now()]), 20);
    clock.setTimeout(() => seen.push(['c', clock.now()]), 50);
    clock.advance(100);
    expect(seen).toEqual([['a', 30], ['b', 60], ['c', 60]]);
    expect(clock.now()).toBe(110);
  });

  it('runs timers set by timers within the same advance window', () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    clock.setTimeout(() => {
      seen.push(clock.now());
      clock.setTimeout(() => seen.push(clock.now()), 5);
    }, 5);
    clock.advance(9);
    expect(seen).toEqual([5]);
    clock.advance(1);
    expect(seen).toEqual([5, 10]);
  });

  it('cancels timers and counts pending ones', () => {
    const clock = new ManualClock();
    let fired = false;
    const h = clock.setTimeout(() => {
      fired = true;
    }, 1);
    expect(clock.pendingTimers).toBe(1);
    clock.clearTimeout(h);
    clock.clearTimeout(h);
    expect(clock.pendingTimers).toBe(0);
    clock.advance(5);
    expect(fired).toBe(false);
    expect(clock.runNext()).toBe(false);
  });

  it('rejects negative advances with a message naming the argument', () => {
    expect(() => { new ManualClock().advance(-1); }).toThrow(/`ms`/);
  });

  it('fires any set of timers in (due, creation) order', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { maxLength: 200 }), fc.array(fc.nat(199), { maxLength: 50 }), (delays, cancels) => {
        const clock = new ManualClock();
        const fired: number[] = [];
        const handles = delays.map((d, i) => clock.setTimeout(() => fired.push(i), d));
        const cancelled = new Set(cancels.filter((c) => c < delays.length));
        for (const c of cancelled) clock.clearTimeout(handles[c]!);
        clock.advance(1000);
        const expected = delays
          .map((d, i) => ({ d, i }))
          .filter(({ i }) => !cancelled.has(i))
          .sort((a, b) => a.d - b.d || a.i - b.i)
          .map(({ i }) => i);
        expect(fired).toEqual(expected);
        expect(clock.pendingTimers).toBe(0);
      }),
    );
  });

  it('sleep resolves on clock time and rejects on abort', async () => {
    const clock = new ManualClock();
    const done = sleep(clock, 100);
    clock.advance(100);
    await expect(done).resolves.toBeUndefined();
    const ac = new AbortController();
    const pending = sleep(clock, 100, ac.signal);
    ac.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(clock.pendingTimers).toBe(0);
  });
});
