import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PluginRegistry, SwitchyardError, builtinPlugins, createDefaultRegistry, definePlugin } from '@switchyard/core';

const def = (type: string, tag = '') => definePlugin({ type, description: tag, parameters: z.strictObject({}), create: (_p, ctx) => ({ type, name: ctx.name }) });

describe('PluginRegistry', () => {
  it('registers, looks up and lists types in sorted order', () => {
    const r = new PluginRegistry().registerAll([def('b'), def('a')]);
    expect(r.has('a')).toBe(true);
    expect(r.get('b')?.type).toBe('b');
    expect(r.get('c')).toBeUndefined();
    expect(r.types()).toEqual(['a', 'b']);
    expect(r.definitions().map((d) => d.type)).toEqual(['b', 'a']);
  });

  it('refuses a second definition of a type unless asked to replace it', () => {
    const r = new PluginRegistry().register(def('a', 'first'));
    expect(() => r.register(def('a', 'second'))).toThrow(SwitchyardError);
    expect(() => r.register(def('a', 'second'))).toThrow(/already registered/);
    r.register(def('a', 'second'), { replace: true });
    expect(r.get('a')?.description).toBe('second');
    expect(() => r.register(def(''))).toThrow(/non-empty/);
  });

  it('clones without sharing later registrations', () => {
    const base = new PluginRegistry().register(def('a'));
    const copy = base.clone().register(def('b'));
    expect(base.has('b')).toBe(false);
    expect(copy.types()).toEqual(['a', 'b']);
  });

  it('the default registry holds every core built-in and both saturation detectors', () => {
    const r = createDefaultRegistry();
    for (const d of builtinPlugins) expect(r.has(d.type)).toBe(true);
    expect(r.has('utilization-detector')).toBe(true);
    expect(r.has('concurrency-detector')).toBe(true);
    expect(r.types()).toEqual(
      expect.arrayContaining([
        'decode-filter', 'prefill-filter', 'encode-filter', 'label-selector-filter', 'session-affinity-filter',
        'queue-scorer', 'running-requests-size-scorer', 'kv-cache-utilization-scorer', 'load-aware-scorer', 'token-load-scorer',
        'active-request-scorer', 'lora-affinity-scorer', 'session-affinity-scorer', 'latency-scorer',
        'max-score-picker', 'random-picker', 'weighted-random-picker', 'single-profile-handler', 'disagg-profile-handler',
        'prefix-based-pd-decider', 'always-disagg-pd-decider', 'always-disagg-multimodal-decider',
        'inflight-load-producer', 'session-id-producer', 'predicted-latency-producer',
      ]),
    );
    // Each call is a fresh registry, so users can add plugins without affecting others.
    createDefaultRegistry().register(def('mine'));
    expect(createDefaultRegistry().has('mine')).toBe(false);
  });
});
