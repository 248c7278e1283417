import { describe, expect, it } from 'vitest';
import { Counter, Histogram, Registry } from 'prom-client';
import { mergeExpositions } from '@switchyard/express';

function registry(pool: string, count: number): Registry {
  const r = new Registry();
  new Counter({ name: 'x_requests_total', help: 'Requests.', labelNames: ['inference_pool'], registers: [r] }).labels(pool).inc(count);
  new Histogram({ name: 'x_duration_seconds', help: 'Duration.', labelNames: ['inference_pool'], buckets: [0.1, 1], registers: [r] }).labels(pool).observe(0.5);
  return r;
}

describe('mergeExpositions', () => {
  it('joins same-name families from several registries under one header', async () => {
    const text = mergeExpositions([await registry('a', 1).metrics(), await registry('b', 2).metrics()]);
    expect(text.match(/# TYPE x_requests_total counter/g)).toHaveLength(1);
    expect(text.match(/# HELP x_duration_seconds/g)).toHaveLength(1);
    expect(text).toContain('x_requests_total{inference_pool="a"} 1');
    expect(text).toContain('x_requests_total{inference_pool="b"} 2');
    expect(text).toContain('x_duration_seconds_bucket{le="1",inference_pool="b"} 1');
    // Family blocks stay contiguous: every sample of x_requests_total precedes the next header.
    const lines = text.trim().split('\n');
    const type = lines.indexOf('# TYPE x_requests_total counter');
    expect(lines.slice(type + 1, type + 3).every((l) => l.startsWith('x_requests_total{'))).toBe(true);
  });

  it('drops a duplicated series, keeping the first value', () => {
    const a = '# HELP y Y.\n# TYPE y gauge\ny{k="1"} 1\n';
    const b = '# HELP y Y.\n# TYPE y gauge\ny{k="1"} 5\ny{k="2"} 2\n';
    expect(mergeExpositions([a, b])).toBe('# HELP y Y.\n# TYPE y gauge\ny{k="1"} 1\ny{k="2"} 2\n');
  });

  it('returns the empty string for nothing', () => {
    expect(mergeExpositions(['', ''])).toBe('');
  });
});

// Why mergeExpositions exists (docs/architecture.md, "Dependencies"): prom-client's own
// Registry.merge refuses two registries that share a metric name, which is exactly the
// multi-pool case (every pool registers the same families with its own `inference_pool` label).
describe("prom-client's Registry.merge", () => {
  it('throws on a metric name two registries share, so it cannot join per-pool registries', () => {
    expect(() => Registry.merge([registry('a', 1), registry('b', 2)])).toThrow(/x_requests_total/);
  });
});
