import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { EndpointPicker, EndpointPool, FastCounter, FastGauge, FastHistogram, OVERFLOW_LABEL_VALUE, SchedulerMetrics } from '@switchyard/core';

const BUCKETS = [0.005, 0.025, 0.1, 1, 2.5, 10];

describe('fast metrics', () => {
  it('render the same exposition text as prom-client for the same recordings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ label: fc.constantFrom('a', 'b', 'c'), v: fc.oneof(fc.constantFrom(...BUCKETS), fc.double({ min: 0, max: 20, noNaN: true })) }), { maxLength: 40 }),
        async (ops) => {
          const prom = new Registry();
          const fast = new Registry();
          const ph = new Histogram({ name: 'h', help: 'h.', labelNames: ['l'], buckets: BUCKETS, registers: [prom] });
          const pc = new Counter({ name: 'c_total', help: 'c.', labelNames: ['l'], registers: [prom] });
          const pg = new Gauge({ name: 'g', help: 'g.', labelNames: ['l'], registers: [prom] });
          const fh = new FastHistogram({ name: 'h', help: 'h.', labelNames: ['l'], buckets: [...BUCKETS].reverse(), registers: [fast] });
          const fcn = new FastCounter({ name: 'c_total', help: 'c.', labelNames: ['l'], registers: [fast] });
          const fg = new FastGauge({ name: 'g', help: 'g.', labelNames: ['l'], registers: [fast] });
          for (const { label, v } of ops) {
            ph.labels(label).observe(v);
            fh.labels(label).observe(v);
            pc.labels(label).inc(v);
            fcn.labels(label).inc(v);
            pg.labels(label).set(v);
            fg.labels(label).set(v);
          }
          expect(await fast.metrics()).toBe(await prom.metrics());
        },
      ),
      { numRuns: 60 },
    );
  });

  it('record unlabelled values through the metric itself', async () => {
    const registry = new Registry();
    const g = new FastGauge({ name: 'g', help: 'g.', registers: [registry] });
    const h = new FastHistogram({ name: 'h', help: 'h.', buckets: [1], registers: [registry] });
    g.set(3);
    g.inc();
    g.dec(2);
    h.observe(0.5);
    h.observe(4);
    const text = await registry.metrics();
    expect(text).toContain('g 2\n');
    expect(text).toContain('h_bucket{le="1"} 1\n');
    expect(text).toContain('h_bucket{le="+Inf"} 2\n');
    expect(text).toContain('h_sum 4.5\n');
  });

  it('cap label combinations and send the rest to one overflow series', async () => {
    const c = new FastCounter({ name: 'c_total', help: 'c.', labelNames: ['model', 'tenant'], maxSeries: 3 });
    for (let i = 0; i < 100; i++) c.labels(`m${i}`, 't').inc();
    expect(c.size).toBe(4);
    const values = (await c.get()).values;
    expect(values.find((v) => v.labels.model === OVERFLOW_LABEL_VALUE)).toEqual({ labels: { model: OVERFLOW_LABEL_VALUE, tenant: OVERFLOW_LABEL_VALUE }, value: 97 });
    expect(c.labels('m1', 't')).toBe(c.labels('m1', 't'));
    c.reset();
    expect(c.size).toBe(0);
  });

  it('bound SchedulerMetrics request series even when clients vary model names', async () => {
    const metrics = new SchedulerMetrics({ maxSeries: 5 });
    for (let i = 0; i < 50; i++) metrics.requestSeries(`model-${i}`, `model-${i}`, '', '0').total.inc();
    expect(metrics.requestTotal.size).toBeLessThanOrEqual(6);
    const overflow = (await metrics.requestTotal.get()).values.find((v) => v.labels.model_name === OVERFLOW_LABEL_VALUE);
    expect(overflow?.value).toBe(45);
    const s = metrics.requestSeries('x', 'y', 'f', '1');
    expect(metrics.requestSeries('x', 'y', 'f', '1')).toBe(s);
  });

  it('resolve request series by all four labels, alternating or repeated', async () => {
    const metrics = new SchedulerMetrics();
    // Each request differs from the one before in one label.
    const labels: [string, string, string, string][] = [
      ['m', 'm', 'a', '0'],
      ['m', 'm', 'b', '0'],
      ['m', 'm', 'a', '0'],
      ['m', 'm', 'a', '-1'],
      ['m', 'lora', 'a', '-1'],
      ['x', 'lora', 'a', '-1'],
    ];
    for (const [model, target, fairness, priority] of labels) metrics.requestSeries(model, target, fairness, priority).total.inc();
    const values = (await metrics.requestTotal.get()).values.map((v) => [v.labels.model_name, v.labels.target_model_name, v.labels.fairness_id, v.labels.priority, v.value]);
    expect(values).toEqual([
      ['m', 'm', 'a', '0', 2],
      ['m', 'm', 'b', '0', 1],
      ['m', 'm', 'a', '-1', 1],
      ['m', 'lora', 'a', '-1', 1],
      ['x', 'lora', 'a', '-1', 1],
    ]);
  });

  it('label ready_endpoints per pool when pickers sharing one SchedulerMetrics are named', async () => {
    const metrics = new SchedulerMetrics();
    const a = new EndpointPool();
    const b = new EndpointPool();
    a.add({ id: 'a1', address: '10.0.0.1:8000' });
    b.add({ id: 'b1', address: '10.0.1.1:8000' });
    b.add({ id: 'b2', address: '10.0.1.2:8000' });
    const pa = new EndpointPicker({ pool: a, metrics, poolName: 'pool-a' });
    const pb = new EndpointPicker({ pool: b, metrics, poolName: 'pool-b' });
    a.add({ id: 'a2', address: '10.0.0.2:8000' });
    a.add({ id: 'a3', address: '10.0.0.3:8000' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('llm_d_epp_ready_endpoints{name="pool-a"} 3\n');
    expect(text).toContain('llm_d_epp_ready_endpoints{name="pool-b"} 2\n');
    await pa.close();
    await pb.close();
  });
});
