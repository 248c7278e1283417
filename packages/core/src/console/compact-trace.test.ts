import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionTrace } from '../scheduling/trace.js';
import { formatCompactTrace } from './compact-trace.js';

const trace: DecisionTrace = {
  requestId: 'r1',
  targetModel: 'llama',
  priority: -1,
  fairnessId: 'tenant-a',
  producers: [],
  profiles: [
    {
      profile: 'default',
      candidates: ['10.0.0.1:8000', '10.0.0.2:8000', '10.0.0.3:8000'],
      filters: [
        { name: 'lora-affinity-filter', removed: [] },
        { name: 'role-filter', removed: ['10.0.0.3:8000'] },
      ],
      scorers: [
        { name: 'queue-scorer', weight: 2, scores: {}, weighted: {} },
        { name: 'prefix-cache-scorer', weight: 3, scores: {}, weighted: {} },
      ],
      totals: { '10.0.0.1:8000': 1.5, '10.0.0.2:8000': 2.666666 },
      picked: ['10.0.0.2:8000'],
    },
  ],
};

describe('formatCompactTrace', () => {
  it('summarises model, classification, filters, best scores and scorers on one line', () => {
    expect(formatCompactTrace(trace)).toBe(
      'model=llama;priority=-1;fairness=tenant-a;profile=default;candidates=3;picked=10.0.0.2:8000;filtered=role-filter:1;scores=10.0.0.2:8000:2.667,10.0.0.1:8000:1.5;scorers=queue-scorer:2,prefix-cache-scorer:3',
    );
  });

  it('lists only the best endpoints and cuts at a field boundary', () => {
    expect(formatCompactTrace(trace, { topEndpoints: 1 })).toContain('scores=10.0.0.2:8000:2.667;');
    const cut = formatCompactTrace(trace, { maxLength: 64 });
    expect(cut).toBe('model=llama;priority=-1;fairness=tenant-a;profile=default;cut=1');
    expect(cut.length).toBeLessThanOrEqual(64);
  });

  it('replaces separators and non-printable characters in names', () => {
    const odd = { ...trace, targetModel: 'a;b=c,d é\n', profiles: [] };
    expect(formatCompactTrace(odd)).toBe('model=a_b_c_d___;priority=-1;fairness=tenant-a');
  });

  it('always yields a printable-ASCII header value within maxLength', () => {
    const name = fc.string({ unit: 'binary', maxLength: 30 });
    fc.assert(
      fc.property(name, name, fc.array(fc.tuple(name, fc.double()), { maxLength: 20 }), fc.integer({ min: 8, max: 400 }), (model, profile, totals, maxLength) => {
        const t: DecisionTrace = { ...trace, targetModel: model, profiles: [{ ...trace.profiles[0]!, profile, totals: Object.fromEntries(totals) }] };
        const out = formatCompactTrace(t, { maxLength });
        expect(out.length).toBeLessThanOrEqual(maxLength);
        expect(out).toMatch(/^[\x21-\x7e]*$/);
      }),
    );
  });
});
