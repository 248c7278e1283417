import { describe, expect, it } from 'vitest';
import { EndpointPool, ROLE_LABEL, createConcurrencyDetector, isSaturationDetector } from '@switchyard/core';
import { partitionStages, poolSaturation, stageSaturation } from '@switchyard/core/internal';

function pool(members: readonly [role: string | undefined, inFlight: number][]): EndpointPool {
  const p = new EndpointPool();
  members.forEach(([role, n], i) => {
    const address = `10.0.2.${i + 1}:8000`;
    p.add({ address, labels: role === undefined ? {} : { [ROLE_LABEL]: role } });
    p.addInFlight(address, n, 0);
  });
  return p;
}

describe('stage partition', () => {
  it('puts interleaved endpoints in both stages, unlabeled in decode, encode-only in neither', () => {
    const p = pool([['prefill', 0], ['decode', 0], ['both', 0], [undefined, 0], ['encode', 0], ['prefill-decode', 0], ['encode-prefill', 0]]);
    const { prefill, decode } = partitionStages(p.list());
    expect(prefill.map((e) => e.address)).toEqual(['10.0.2.1:8000', '10.0.2.3:8000', '10.0.2.6:8000', '10.0.2.7:8000']);
    expect(decode.map((e) => e.address)).toEqual(['10.0.2.2:8000', '10.0.2.3:8000', '10.0.2.4:8000', '10.0.2.6:8000']);
  });
  it('caches the partition per pool list and recomputes when membership changes', () => {
    const p = pool([['prefill', 0]]);
    const first = partitionStages(p.list());
    expect(partitionStages(p.list())).toBe(first);
    p.add({ address: '10.0.2.9:8000' });
    expect(partitionStages(p.list())).not.toBe(first);
  });
});

describe('pool saturation per stage (llm-d case 13, second half)', () => {
  const d = createConcurrencyDetector({ maxConcurrency: 10 });
  it('is the maximum of the prefill and decode stages', () => {
    // prefill pods at 1.5, decode pods at 0.3: the pool is saturated.
    const p = pool([['prefill', 15], ['decode', 3]]);
    const s = stageSaturation(d, p.list(), 0);
    expect(s).toEqual({ value: 1.5, prefill: 1.5, decode: 0.3 });
    expect(poolSaturation(d, p.list(), 0)).toBe(1.5);
  });
  it('skips a stage without endpoints', () => {
    const p = pool([[undefined, 3], ['decode', 1]]);
    expect(stageSaturation(d, p.list(), 0)).toEqual({ value: 0.2, prefill: undefined, decode: 0.2 });
  });
  it('is saturated when no endpoint serves any stage', () => {
    expect(poolSaturation(d, [], 0)).toBe(1);
    expect(poolSaturation(d, pool([['encode', 0]]).list(), 0)).toBe(1);
  });
  it('recognises detectors', () => {
    expect(isSaturationDetector(d)).toBe(true);
    expect(isSaturationDetector({ type: 'x', name: 'x' })).toBe(false);
    expect(isSaturationDetector(undefined)).toBe(false);
  });
});
