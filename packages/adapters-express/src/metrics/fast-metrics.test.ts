import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { FastCounter, FastGauge, FastHistogram } from '@switchyard/core';

describe('fast metrics', () => {
  it('render exactly like prom-client histograms for the same observations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { maxLength: 50 }), async (values) => {
        const buckets = [0.01, 0.1, 1, 10];
        const ours = new Registry();
        const theirs = new Registry();
        const fast = new FastHistogram({ name: 'h_seconds', help: 'H.', labelNames: ['pool'], buckets, registers: [ours] });
        const ref = new Histogram({ name: 'h_seconds', help: 'H.', labelNames: ['pool'], buckets, registers: [theirs] });
        const child = fast.labels('p');
        for (const v of values) {
          child.observe(v);
          ref.labels('p').observe(v);
        }
        if (values.length === 0) return;
        expect(await ours.metrics()).toBe(await theirs.metrics());
      }),
      { numRuns: 50 },
    );
  });

  it('counts and gauges by bound labels, escaping label values', async () => {
    const r = new Registry();
    const c = new FastCounter({ name: 'c_total', help: 'C.', labelNames: ['route', 'code'], registers: [r] });
    const g = new FastGauge({ name: 'g', help: 'G.', labelNames: ['pool'], registers: [r] });
    c.labels('inference', '200').inc();
    c.labels('inference', '200').inc(2);
    const child = g.labels('a"b');
    child.inc();
    child.inc();
    child.dec();
    const text = await r.metrics();
    expect(text).toContain('c_total{route="inference",code="200"} 3');
    expect(text).toContain('g{pool="a\\"b"} 1');
  });
});
