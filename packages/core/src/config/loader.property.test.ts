import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { EndpointPool, ManualClock, SwitchyardError, createDefaultRegistry, loadConfig, parseDuration } from '@switchyard/core';

const SCORERS = ['queue-scorer', 'kv-cache-utilization-scorer', 'load-aware-scorer', 'lora-affinity-scorer', 'token-load-scorer', 'active-request-scorer', 'running-requests-size-scorer'] as const;
const PICKERS = ['max-score-picker', 'random-picker', 'weighted-random-picker'] as const;

const load = (source: string | object) => loadConfig(source, { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });

const configArb = fc
  .record({
    scorers: fc.uniqueArray(fc.constantFrom(...SCORERS), { minLength: 0, maxLength: SCORERS.length }),
    weights: fc.array(fc.integer({ min: -5, max: 10 }), { minLength: SCORERS.length, maxLength: SCORERS.length }),
    picker: fc.option(fc.constantFrom(...PICKERS), { nil: undefined }),
    k: fc.integer({ min: -1, max: 4 }),
    withProfile: fc.boolean(),
    json: fc.boolean(),
  })
  .map(({ scorers, weights, picker, k, withProfile, json }) => {
    const plugins: Record<string, unknown>[] = scorers.map((type) => ({ type }));
    if (picker !== undefined) plugins.push({ type: picker, parameters: { maxNumOfEndpoints: k } });
    const doc: Record<string, unknown> = { apiVersion: 'llm-d.ai/v1', kind: 'EndpointPickerConfig', plugins };
    if (withProfile) {
      doc.schedulingProfiles = [
        {
          name: 'p',
          plugins: [...scorers.map((s, i) => ({ pluginRef: s, weight: weights[i] ?? 1 })), ...(picker === undefined ? [] : [{ pluginRef: picker }])],
        },
      ];
    }
    return { text: json ? JSON.stringify(doc) : stringify(doc), scorers, picker, withProfile };
  });

describe('loadConfig (properties)', () => {
  it('loads any well-formed combination of built-ins, and its printed effective config loads back identically', () => {
    fc.assert(
      fc.property(configArb, ({ text, scorers, picker, withProfile }) => {
        const c = load(text);
        const profile = [...c.profiles.values()][0]!;
        expect(c.profiles.size).toBe(1);
        expect(profile.picker.type).toBe(picker ?? 'max-score-picker');
        expect(profile.scorers.length).toBe(scorers.length === 0 && !withProfile ? 2 : scorers.length);
        const again = load(c.printEffectiveConfig());
        expect(again.effective).toEqual(c.effective);
        expect(again.printEffectiveConfig()).toBe(c.printEffectiveConfig());
      }),
      { numRuns: 150 },
    );
  });

  it('never throws anything but CONFIG_INVALID on arbitrary input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v)), fc.object()), (input) => {
        try {
          load(input);
        } catch (e) {
          expect(e).toBeInstanceOf(SwitchyardError);
          expect((e as SwitchyardError).code).toBe('CONFIG_INVALID');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseDuration (properties)', () => {
  it('parses composed Go durations to their sum in milliseconds', () => {
    fc.assert(
      fc.property(fc.nat(99), fc.nat(59), fc.nat(59), fc.nat(999), (h, m, s, ms) => {
        expect(parseDuration(`${h}h${m}m${s}s${ms}ms`)).toBe(((h * 60 + m) * 60 + s) * 1000 + ms);
      }),
    );
  });
  it('rejects text that is not a duration', () => {
    for (const bad of ['', '10', 's', '1x', '1s2', '-1s', '1 s']) expect(parseDuration(bad)).toBeUndefined();
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('1.5s')).toBe(1500);
  });
});
