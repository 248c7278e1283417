import { ManualClock } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { RestartBudget } from './restart-budget.js';

describe('RestartBudget', () => {
  it('allows at most the budget per sliding minute, and again once old restarts leave the window', () => {
    const clock = new ManualClock(0);
    const budget = new RestartBudget(clock, 3);
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
    clock.advance(59_999);
    expect(budget.take()).toBe(false);
    clock.advance(1);
    expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
  });

  it('counts only restarts taken: a refusal does not extend the wait', () => {
    const clock = new ManualClock(0);
    const budget = new RestartBudget(clock, 1);
    expect(budget.take()).toBe(true);
    for (let i = 0; i < 10; i++) {
      clock.advance(5_000);
      budget.take();
    }
    clock.advance(10_000); // 60 s after the one restart taken
    expect(budget.take()).toBe(true);
  });
});
