import { describe, expect, it } from 'vitest';
import { createSoftReflectiveCeiling, softReflectiveCeilingPolicyPlugin } from '@switchyard/flow-control';

describe('soft-reflective-ceiling-policy', () => {
  it('keeps every band open below the reflective ceiling', () => {
    const p = createSoftReflectiveCeiling();
    // 3 bands at s = 0.3: band 1 reflects at 0.85, band 2 at 0.7.
    expect(p.computeLimits(0.3, [10, 0, -10])).toEqual([1, 1, 1]);
    expect(p.computeLimits(0, [0])).toEqual([1]);
  });

  it('closes lower bands at full saturation and trickles them in between', () => {
    const p = createSoftReflectiveCeiling();
    expect(p.computeLimits(1, [10, 0, -10])).toEqual([1, 0, 0]);
    // s = 0.75 with 2 bands: band 1 reflects at 0.25 < s; period round(0.75/0.25) = 3.
    const seen = Array.from({ length: 6 }, () => p.computeLimits(0.75, [1, 0])[1]);
    expect(seen).toEqual([1, 0, 0, 1, 0, 0]);
    expect(p.saturationDependent).toBe(true);
  });

  it('opens the middle band while saturation is under its own reflection', () => {
    const p = createSoftReflectiveCeiling();
    // s = 0.65 with 3 bands: band 1 reflects at 0.675 (open), band 2 at 0.35 (trickle, period 2).
    expect(p.computeLimits(0.65, [1, 0, -1])).toEqual([1, 1, 1]);
    expect(p.computeLimits(0.65, [1, 0, -1])).toEqual([1, 1, 0]);
  });

  it('takes no parameters', () => {
    expect(softReflectiveCeilingPolicyPlugin.parameters.safeParse({ threshold: 1 }).success).toBe(false);
    expect(softReflectiveCeilingPolicyPlugin.parameters.safeParse(undefined).success).toBe(true);
  });
});
