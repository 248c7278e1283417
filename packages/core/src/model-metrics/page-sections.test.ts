import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE_METRIC_MAPPINGS, mappingMetricNames, parsePrometheusExposition } from '@switchyard/core';
import { selectFamilySections } from './page-sections.js';
import { vllmMetricsPage } from '../testing/index.js';

const OWNED: Record<string, string[]> = { histogram: ['_bucket', '_count', '_sum'], summary: ['_count', '_sum'], counter: ['_total'], gauge: [], untyped: [] };

/** A page whose families are each one group (comments, then samples), as the format requires. */
const page = fc
  .array(fc.constantFrom('histogram', 'summary', 'counter', 'gauge', 'untyped'), { minLength: 1, maxLength: 6 })
  .chain((types) => {
    // Names that prefix one another (m, mx, mxx...), so only exact names tell them apart.
    const names = types.map((_t, i) => `m${'x'.repeat(i)}`);
    const block = (t: string, i: number): fc.Arbitrary<string> => {
      const name = names[i] as string;
      const own = [name, ...(OWNED[t] ?? []).map((s) => `${name}${s}`)];
      const line = fc.tuple(fc.constantFrom(...own), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 99 })).map(([n, l, v]) => (l === 0 ? `${n} ${v}` : `${n}{le="${l}"} ${v}`));
      return fc.tuple(fc.boolean(), fc.array(line, { maxLength: 8 })).map(([help, ls]) => [...(help ? [`# HELP ${name} family ${i}`] : []), `# TYPE ${name} ${t}`, ...ls].join('\n'));
    };
    const blocks = fc.tuple(...types.map((t, i) => block(t, i)));
    // Lines before the first comment and a trailing `# EOF` are attributed by the parser itself.
    const preamble = fc.option(fc.constantFrom('m 1', 'mx_total 2', 'stray{a="b"} 3'), { nil: undefined });
    const ending = fc.constantFrom('', '\n', '\n# EOF\n');
    const eol = fc.constantFrom('\n', '\r\n');
    const text = fc.tuple(preamble, blocks, ending, eol).map(([pre, bs, end, nl]) => [...(pre === undefined ? [] : [pre]), ...bs].join('\n').concat(end).replaceAll('\n', nl));
    const until = fc.option(fc.array(fc.subarray(names, { minLength: 1 }), { maxLength: 3 }), { nil: undefined });
    return fc.tuple(text, fc.subarray(names), until);
  });

describe('selectFamilySections', () => {
  it('a parse of the selection reads what the filtered, stopped parse of the page reads, in whole families (property)', () => {
    fc.assert(
      fc.property(page, ([text, wanted, until]) => {
        const keep = new Set(wanted);
        const options = { filter: (n: string) => keep.has(n), ...(until === undefined ? {} : { until }) };
        const bytes = Buffer.from(`${text}garbage after the end`);
        const length = Buffer.byteLength(text);
        const selected = selectFamilySections(bytes, length, options.filter, until);
        const sampled = (t: string, o: typeof options) => parsePrometheusExposition(t, o).families.filter((f) => f.samples.length > 0);
        const got = sampled(selected, options);
        // Every family the stopped parse of the page reads, whole...
        expect(got.slice(0, sampled(text, options).length)).toEqual(sampled(text, options));
        // ...and nothing but whole families of the filtered page (the selection may stop later:
        // it cannot tell which lines before the first comment satisfied a group).
        expect(got).toEqual(sampled(text, { filter: options.filter }).slice(0, got.length));
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.constantFrom('# TYPE m gauge\n', '# HELP m x\n', 'm 1\n', '#', '\n#', '# TYPE', ' ', '\r')), (noise, parts) => {
        const bytes = Buffer.concat([Buffer.from(parts.join('')), noise]);
        expect(typeof selectFamilySections(bytes, bytes.length, (n) => n === 'm', [['m']])).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });

  it('on a vLLM page keeps only the mapped families and reads them the same', () => {
    const text = vllmMetricsPage({ engines: 2 });
    const names = mappingMetricNames(ENGINE_METRIC_MAPPINGS.vllm);
    const filter = (n: string): boolean => names.has(n) || names.has(`${n}_total`) || names.has(`${n}_info`);
    const selected = selectFamilySections(Buffer.from(text), Buffer.byteLength(text), filter);
    expect(selected.length).toBeLessThan(text.length / 5);
    expect(parsePrometheusExposition(selected, { filter }).families).toEqual(parsePrometheusExposition(text, { filter }).families);
  });
});
