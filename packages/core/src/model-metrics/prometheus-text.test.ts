import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPrometheusText, histogramSeries, parsePrometheusExposition, parsePrometheusText, type MetricFamily, type MetricType, type Sample } from '@switchyard/core';
import { vllmMetricsPage } from '../testing/index.js';

describe('parsePrometheusText', () => {
  it('reads HELP, TYPE, labels with escapes, special values and timestamps', () => {
    const text = [
      '# HELP http_requests_total The total number\\nof \\\\ requests.',
      '# TYPE http_requests_total counter',
      'http_requests_total{method="post",code="200"} 1027 1395066363000',
      'http_requests_total{method="post",code="400"}    3   1395066363000',
      '',
      '# A normal comment',
      'msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9',
      'metric_without_timestamp_and_labels 12.47',
      'something_weird{problem="division by zero"} +Inf -3982045',
      'neg{a="b",} -Inf',
      'nan_metric NaN',
      'windows_line 1\r',
    ].join('\n');
    const r = parsePrometheusExposition(text);
    expect(r.invalidLines).toBe(0);
    const [counter, msdos, plain, weird, neg, nan, win] = r.families;
    expect(counter).toMatchObject({ name: 'http_requests_total', type: 'counter', help: 'The total number\nof \\ requests.' });
    expect(counter?.samples).toEqual([
      { name: 'http_requests_total', labels: { method: 'post', code: '200' }, value: 1027, timestampMs: 1395066363000 },
      { name: 'http_requests_total', labels: { method: 'post', code: '400' }, value: 3, timestampMs: 1395066363000 },
    ]);
    expect(msdos?.samples[0]?.labels).toEqual({ path: 'C:\\DIR\\FILE.TXT', error: 'Cannot find file:\n"FILE.TXT"' });
    expect(msdos?.type).toBe('untyped');
    expect(plain?.samples[0]).toEqual({ name: 'metric_without_timestamp_and_labels', labels: {}, value: 12.47, timestampMs: undefined });
    expect(weird?.samples[0]).toMatchObject({ value: Infinity, timestampMs: -3982045 });
    expect(neg?.samples[0]).toMatchObject({ labels: { a: 'b' }, value: -Infinity });
    expect(nan?.samples[0]?.value).toBeNaN();
    expect(win?.samples[0]?.value).toBe(1);
  });

  it('groups histogram, summary and OpenMetrics counter samples under their family', () => {
    const text = `# TYPE lat histogram
lat_bucket{le="0.1"} 2
lat_bucket{le="1"} 5
lat_bucket{le="+Inf"} 6
lat_sum 3.5
lat_count 6
# TYPE rpc summary
rpc{quantile="0.5"} 0.2
rpc_sum 10
rpc_count 40
# TYPE hits counter
hits_total 8192 # {trace_id="abc"} 1.0
hits_created 1.7e9
`;
    const families = parsePrometheusText(text);
    expect(families.map((f) => [f.name, f.type, f.samples.length])).toEqual([
      ['lat', 'histogram', 5],
      ['rpc', 'summary', 3],
      ['hits', 'counter', 2],
    ]);
    const [lat] = families;
    expect(histogramSeries(lat!)).toEqual([{ labels: {}, buckets: [{ le: 0.1, count: 2 }, { le: 1, count: 5 }, { le: Infinity, count: 6 }], sum: 3.5, count: 6 }]);
  });

  it('skips and counts garbage lines without throwing', () => {
    const text = ['ok 1', 'bad{ 1', 'bad{a=b} 1', 'bad{a="b" 1', 'bad{a="b",a="c"} 1', 'nospace{a="b"}', 'x 1 2 3', 'y abc', '9starts 1', '# TYPE z blah', 'z 2', 'emptyvalue '].join('\n');
    const r = parsePrometheusExposition(text);
    expect(r.invalidLines).toBe(10);
    expect(r.firstInvalidLine).toBe(2);
    expect(r.families.map((f) => f.name)).toEqual(['ok', 'z']);
  });

  it('accepts quoted UTF-8 metric and label names', () => {
    const [f] = parsePrometheusText('{"my.metric", "label.x"="v", b="w"} 4\n');
    expect(f).toMatchObject({ name: 'my.metric', samples: [{ name: 'my.metric', labels: { 'label.x': 'v', b: 'w' }, value: 4 }] });
  });

  it('keeps only filtered families and still parses them fully', () => {
    const page = vllmMetricsPage();
    const all = parsePrometheusText(page);
    const some = parsePrometheusText(page, { filter: (n) => n === 'vllm:num_requests_running' || n === 'vllm:time_to_first_token_seconds' });
    expect(some.map((f) => f.name)).toEqual(['vllm:num_requests_running', 'vllm:time_to_first_token_seconds']);
    expect(some).toEqual(all.filter((f) => f.name === 'vllm:num_requests_running' || f.name === 'vllm:time_to_first_token_seconds'));
  });

  it('a filtered parse returns exactly the wanted families of a full parse (property)', () => {
    const OWNED: Record<string, string[]> = { histogram: ['_bucket', '_count', '_sum'], summary: ['_count', '_sum'], counter: ['_total'], gauge: [], untyped: [] };
    const page = fc
      .array(fc.constantFrom('histogram', 'summary', 'counter', 'gauge', 'untyped'), { minLength: 1, maxLength: 5 })
      .chain((types) => {
        // Names that prefix one another (m, mx, mxx...), so that only suffix ownership tells them apart.
        const names = types.map((_t, i) => `m${'x'.repeat(i)}`);
        // Every sample name a family owns, written in any order (a family's samples need not be contiguous).
        const sampleNames = types.flatMap((t, i) => [names[i] as string, ...(OWNED[t] ?? []).map((s) => `${names[i]}${s}`)]);
        const line = fc.tuple(fc.constantFrom(...sampleNames), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 99 })).map(([n, l, v]) => (l === 0 ? `${n} ${v}` : `${n}{le="${l}"} ${v}`));
        const header = types.map((t, i) => `# HELP ${names[i]} family ${i}\n# TYPE ${names[i]} ${t}`).join('\n');
        return fc.tuple(fc.constant(names), fc.array(line, { maxLength: 40 }).map((ls) => `${header}\n${ls.join('\n')}\n`), fc.subarray(names));
      });
    fc.assert(
      fc.property(page, ([, text, wanted]) => {
        const keep = new Set(wanted);
        const all = parsePrometheusExposition(text);
        const some = parsePrometheusExposition(text, { filter: (n) => keep.has(n) });
        expect(some.families).toEqual(all.families.filter((f) => keep.has(f.name)));
        expect(some.invalidLines).toBe(all.invalidLines);
      }),
      { numRuns: 500 },
    );
  });

  it('parses a full vLLM page without invalid lines', () => {
    const r = parsePrometheusExposition(vllmMetricsPage({ engines: 2 }));
    expect(r.invalidLines).toBe(0);
    const ttft = r.families.find((f) => f.name === 'vllm:time_to_first_token_seconds');
    expect(ttft?.type).toBe('histogram');
    expect(histogramSeries(ttft!)).toHaveLength(2);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.array(fc.constantFrom('# TYPE ', '# HELP ', 'a', '{', '}', '"', '\\', '=', ',', ' ', '\n', '1', 'e', '+Inf', 'NaN', '_bucket', 'le')).map((a) => a.join(''))), (text) => {
        const r = parsePrometheusExposition(text);
        expect(r.invalidLines).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
    expect(parsePrometheusText(undefined as unknown as string)).toEqual([]);
  });
});

const metricName = fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,12}$/);
const labelName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/).filter((n) => n !== '__proto__');
const value = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(NaN, Infinity, -Infinity, 0, -0));
const samples = (name: string): fc.Arbitrary<Sample[]> =>
  fc.array(
    fc.record({
      name: fc.constant(name),
      labels: fc.dictionary(labelName, fc.string({ unit: 'binary' }), { maxKeys: 4 }),
      value,
      timestampMs: fc.option(fc.integer({ min: -1e12, max: 1e13 }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 4 },
  );
const family = (i: number): fc.Arbitrary<MetricFamily> =>
  fc
    .tuple(metricName, fc.constantFrom<MetricType>('gauge', 'untyped', 'counter'), fc.option(fc.string({ unit: 'binary' }), { nil: undefined }))
    .chain(([name, type, help]) => {
      const full = `f${i}_${name}`; // unique prefixes keep families apart
      return samples(full).map((s) => ({ name: full, type, help: help?.replace(/^[ \t]+|[ \t\r]+$/g, ''), samples: s }));
    });

describe('format/parse round trip', () => {
  it('parses back exactly what was formatted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => family(i)))), (families) => {
        const text = formatPrometheusText(families);
        const r = parsePrometheusExposition(text);
        expect(r.invalidLines).toBe(0);
        expect(r.families.map((f) => ({ ...f, samples: f.samples.map((s) => ({ ...s, labels: { ...s.labels } })) }))).toEqual(families);
      }),
      { numRuns: 500 },
    );
  });
});
