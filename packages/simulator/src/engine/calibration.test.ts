import { describe, expect, it } from 'vitest';
import { calibrationPoints } from '@switchyard/simulator';

describe('calibration table', () => {
  it.each(calibrationPoints().map((p) => [p.what, p] as const))('%s: the model is within ±15%% of the published figure', (_what, p) => {
    expect(Math.abs(p.model / p.published - 1)).toBeLessThanOrEqual(0.15);
  });

  it('keeps held-out rows (no parameter was fitted to them)', () => {
    expect(calibrationPoints().filter((p) => p.role === 'held-out').length).toBeGreaterThanOrEqual(3);
  });
});
