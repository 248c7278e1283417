import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  EndpointPicker,
  EndpointPool,
  ManualClock,
  SwitchyardError,
  createDefaultRegistry,
  definePlugin,
  loadConfig,
  parseRequest,
  type DataProducer,
  type LoadedConfig,
  type PluginRegistry,
} from '@switchyard/core';
import { standInFlowControlPack, standInPrefixProducer, standInPrefixScorer } from './test-standins.js';

const testdata = (name: string): string => readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8');
const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';

function withPrefix(): PluginRegistry {
  return createDefaultRegistry().registerAll([standInPrefixScorer, standInPrefixProducer]).registerPack(standInFlowControlPack);
}

const load = (source: string | object, registry: PluginRegistry = createDefaultRegistry(), extra: { allowExperimental?: boolean } = {}): LoadedConfig =>
  loadConfig(source, { registry, pool: new EndpointPool(), clock: new ManualClock(), ...extra });

function errorOf(fn: () => unknown): SwitchyardError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SwitchyardError);
    expect((e as SwitchyardError).code).toBe('CONFIG_INVALID');
    return e as SwitchyardError;
  }
  throw new Error('expected CONFIG_INVALID');
}

const profileShape = (c: LoadedConfig) =>
  [...c.profiles.values()].map((p) => ({
    name: p.name,
    filters: p.filters.map((f) => f.name),
    scorers: p.scorers.map((s) => `${s.scorer.name}×${s.weight}`),
    picker: p.picker.name,
  }));

describe('loadConfig defaults (§11)', () => {
  it('an empty config gets queue 2 and kv-cache 2, max-score and the single-profile handler', () => {
    const c = load(HEAD);
    expect(profileShape(c)).toEqual([{ name: 'default', filters: [], scorers: ['queue-scorer×2', 'kv-cache-utilization-scorer×2'], picker: 'max-score-picker' }]);
    expect(c.profileHandler.type).toBe('single-profile-handler');
    expect(c.featureGates).toEqual([]);
    expect(c.flowControl).toBeUndefined();
  });

  it('no document at all means the same defaults', () => {
    expect(profileShape(loadConfig(undefined, { registry: createDefaultRegistry(), pool: new EndpointPool() }))).toEqual(profileShape(load(HEAD)));
  });

  it('adds prefix-cache-scorer 3 (and its producer) when the registry has it', () => {
    const c = load(HEAD, withPrefix());
    expect(profileShape(c)[0]?.scorers).toEqual(['queue-scorer×2', 'kv-cache-utilization-scorer×2', 'prefix-cache-scorer×3']);
    expect(c.producers.map((p) => p.type)).toEqual(['approx-prefix-cache-producer']);
  });

  it('without profiles, puts every filter, scorer (weight 1) and the picker in profile "default"', () => {
    const c = load(`${HEAD}plugins:\n- type: decode-filter\n- type: lora-affinity-scorer\n- type: random-picker\n- name: q\n  type: queue-scorer\n`);
    expect(profileShape(c)).toEqual([{ name: 'default', filters: ['decode-filter'], scorers: ['lora-affinity-scorer×1', 'q×1'], picker: 'random-picker' }]);
  });

  it('appends max-score-picker to profiles lacking a picker and defaults weights to 1', () => {
    const c = load(`${HEAD}plugins:\n- type: queue-scorer\n- type: decode-filter\nschedulingProfiles:\n- name: a\n  plugins:\n  - pluginRef: decode-filter\n  - pluginRef: queue-scorer\n`);
    expect(profileShape(c)).toEqual([{ name: 'a', filters: ['decode-filter'], scorers: ['queue-scorer×1'], picker: 'max-score-picker' }]);
  });

  it('auto-creates missing producers (token-load-scorer → inflight-load-producer)', () => {
    const c = load(`${HEAD}plugins:\n- type: token-load-scorer\n  parameters:\n    queueThresholdTokens: 1000\n`);
    expect(c.producers.map((p) => p.name)).toEqual(['inflight-load-producer']);
    expect(c.plugins.has('inflight-load-producer')).toBe(true);
  });

  it('accepts JSON and all three apiVersions', () => {
    for (const apiVersion of ['llm-d.ai/v1alpha1', 'llm-d.ai/v1', 'inference.networking.x-k8s.io/v1alpha1']) {
      const c = load(JSON.stringify({ apiVersion, kind: 'EndpointPickerConfig', plugins: [{ type: 'queue-scorer' }] }));
      expect(c.apiVersion).toBe(apiVersion);
    }
  });
});

describe('loadConfig errors name the path and the problem', () => {
  it('bad parameter type', () => {
    const e = errorOf(() => load(`${HEAD}plugins:\n- type: queue-scorer\n- type: kv-cache-utilization-scorer\n- type: load-aware-scorer\n  parameters:\n    threshold: "10"\n`));
    expect(e.message).toBe('plugins[2].parameters.threshold: expected number, got string');
  });
  it('unknown parameter and unknown top-level fields (strict decoding)', () => {
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: load-aware-scorer\n  parameters:\n    treshold: 3\n`)).message).toBe('plugins[0].parameters.treshold: unknown parameter (did you mean "threshold"?)');
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: queue-scorer\n- type: load-aware-scorer\n  parameters:\n    a: 1\n    b: 2\n`)).message).toBe(
      'plugins[1].parameters.a: unknown parameter; plugins[1].parameters.b: unknown parameter',
    );
    expect(errorOf(() => load(`${HEAD}pluginz: []\n`)).message).toBe('pluginz: unknown field (did you mean "plugins"?)');
    expect(errorOf(() => load(`${HEAD}schedulingProfiles:\n- name: a\n  plugin: []\n`)).message).toBe('schedulingProfiles[0].plugin: unknown field (did you mean "plugins"?)');
  });
  it('unknown type lists the known types', () => {
    const e = errorOf(() => load(`${HEAD}plugins:\n- type: queue-scorerr\n`));
    expect(e.message).toMatch(/^plugins\[0\]\.type: unknown plugin type "queue-scorerr" \(known types: .*queue-scorer.*\)$/);
  });
  it('duplicate names (names default to types)', () => {
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: queue-scorer\n- type: queue-scorer\n`)).message).toMatch(/^plugins\[1\]\.name: duplicate plugin name "queue-scorer" \(also plugins\[0\]/);
  });
  it('undefined pluginRef', () => {
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: queue-scorer\nschedulingProfiles:\n- name: a\n  plugins:\n  - pluginRef: queue\n`)).message).toBe(
      'schedulingProfiles[0].plugins[0].pluginRef: undefined plugin "queue" (declare it under plugins)',
    );
  });
  it('more than one profile handler, single-profile-handler with two profiles, two profiles without a handler', () => {
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: single-profile-handler\n- type: disagg-profile-handler\n`)).message).toMatch(/more than one profile handler/);
    const two = 'schedulingProfiles:\n- name: a\n  plugins: []\n- name: b\n  plugins: []\n';
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: single-profile-handler\n${two}`)).message).toBe('plugins[0]: single-profile-handler "single-profile-handler" cannot run 2 profiles');
    expect(errorOf(() => load(`${HEAD}${two}`)).message).toMatch(/^schedulingProfiles: 2 profiles need a profile handler/);
  });
  it('a profile with two pickers or a ref to a non-scheduling plugin', () => {
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: random-picker\n- type: max-score-picker\nschedulingProfiles:\n- name: a\n  plugins:\n  - pluginRef: random-picker\n  - pluginRef: max-score-picker\n`)).message).toMatch(
      /^schedulingProfiles\[0\]\.plugins\[1\]\.pluginRef: profile "a" already has picker "random-picker"/,
    );
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: always-disagg-pd-decider\nschedulingProfiles:\n- name: a\n  plugins:\n  - pluginRef: always-disagg-pd-decider\n`)).message).toMatch(/is not a filter, scorer or picker/);
  });
  it('apiVersion, kind and YAML syntax', () => {
    expect(errorOf(() => load('apiVersion: v9\nkind: EndpointPickerConfig\n')).message).toMatch(/^apiVersion: expected one of .* \(supported apiVersions: llm-d.ai\/v1alpha1/);
    expect(errorOf(() => load('apiVersion: llm-d.ai/v1\n')).message).toMatch(/^kind: required field missing/);
    expect(errorOf(() => load(`${HEAD}plugins: [\n`)).message).toMatch(/^config: invalid YAML\/JSON at line/);
    expect(errorOf(() => load(`${HEAD}kind: EndpointPickerConfig\n`)).message).toMatch(/line 3/);
  });
  it('unknown feature gates and experimental plugins', () => {
    expect(errorOf(() => load(`${HEAD}featureGates:\n- flowControl\n- warpDrive\n`)).message).toMatch(/^featureGates\[1\]: unknown feature gate "warpDrive"/);
    const registry = createDefaultRegistry().register(definePlugin({ type: 'alpha-scorer', experimental: true, parameters: z.strictObject({}), create: (_p, ctx) => ({ type: 'alpha-scorer', name: ctx.name, score: () => new Map() }) }));
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: alpha-scorer\n`, registry)).message).toMatch(/experimental; load with allowExperimental: true/);
    expect(load(`${HEAD}plugins:\n- type: alpha-scorer\n`, registry, { allowExperimental: true }).plugins.has('alpha-scorer')).toBe(true);
  });
  it('producer cycles and consumed attributes without a producer', () => {
    const producer = (type: string, produces: string, consumes: string) =>
      definePlugin({ type, produces: [produces], parameters: z.strictObject({}), create: (_p, ctx): DataProducer => ({ type, name: ctx.name, produces: [produces], consumes: [consumes], produce: () => undefined }) });
    const registry = createDefaultRegistry().registerAll([producer('p1', 'x', 'y'), producer('p2', 'y', 'x')]);
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: p1\n- type: p2\n`, registry)).message).toMatch(/data producers form a dependency cycle: p1 .* → p2/);
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: p1\n`, registry)).message).toMatch(/plugin "p1" \(type p1\) consumes attribute "y", but no configured plugin produces it/);
  });
  it('undefined references inside flowControl and disagg deciders', () => {
    expect(errorOf(() => load(`${HEAD}featureGates: [flowControl]\nflowControl:\n  priorityBands:\n  - priority: 1\n    fairnessPolicyRef: nope\n`)).message).toBe(
      'flowControl.priorityBands[0].fairnessPolicyRef: undefined plugin "nope" (declare it under plugins)',
    );
    expect(errorOf(() => load(`${HEAD}plugins:\n- type: disagg-profile-handler\n  parameters:\n    deciders:\n      prefill: ghost\n`)).message).toMatch(/^plugins\[0\]: .*decider "ghost" is not a configured plugin/);
  });
});

describe('a config that fails to load', () => {
  // A plugin that holds something to release (as a ZMQ subscriber holds sockets).
  const closed: string[] = [];
  const holder = definePlugin({
    type: 'socket-holder',
    parameters: z.strictObject({ port: z.number().optional() }),
    create: (_p, ctx) => ({ type: 'socket-holder', name: ctx.name, score: () => new Map<string, number>(), close: () => { closed.push(ctx.name); } }),
  });
  const registry = (): PluginRegistry => createDefaultRegistry().register(holder);

  it.each([
    ['a later plugin has bad parameters', `${HEAD}plugins:\n- type: socket-holder\n- name: second\n  type: socket-holder\n  parameters: { port: nope }\n`, /plugins\[1\]\.parameters\.port/],
    ['a profile refers to an undefined plugin', `${HEAD}plugins:\n- type: socket-holder\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: missing\n`, /missing/],
  ])('closes the plugins it had created when %s', async (_case, source, message) => {
    closed.length = 0;
    expect(() => load(source, registry())).toThrow(message);
    await Promise.resolve();
    expect(closed).toEqual(['socket-holder']);
  });
});

describe('llm-d guide configs', () => {
  it('loads the flow-control guide config when the flow-control plugins are registered', () => {
    const c = load(testdata('flow-control-guide.yaml'), withPrefix());
    expect(c.apiVersion).toBe('llm-d.ai/v1');
    expect(c.hasFeatureGate('flowControl')).toBe(true);
    expect(profileShape(c)).toEqual([{ name: 'default', filters: [], scorers: ['queue-scorer×2', 'kv-cache-utilization-scorer×2', 'prefix-cache-scorer×3'], picker: 'max-score-picker' }]);
    expect(c.flowControl?.maxRequests).toBe('1k');
    expect((c.flowControl?.saturationDetector as { pluginRef: string }).pluginRef).toBe('concurrency-detector');
    expect(c.plugins.get('concurrency-detector')?.type).toBe('concurrency-detector');
    // Defaults of the flowControl gate: the policies the document does not name (no utilization
    // detector, since the document picks its own).
    expect(c.plugins.has('global-strict-fairness-policy')).toBe(true);
    expect(c.plugins.has('static-usage-limit-policy')).toBe(true);
    expect(c.plugins.has('utilization-detector')).toBe(false);
  });

  it('loads a P/D disaggregation config and schedules with it', async () => {
    const pool = new EndpointPool();
    pool.add({ id: 'p', address: '10.0.0.1:8000', labels: { 'llm-d.ai/role': 'prefill' } });
    pool.add({ id: 'd', address: '10.0.0.2:8000', labels: { 'llm-d.ai/role': 'decode' } });
    const config = loadConfig(testdata('pd-disaggregation.yaml'), { registry: withPrefix(), pool });
    expect(config.profileHandler.type).toBe('disagg-profile-handler');
    expect(profileShape(config).map((p) => [p.name, p.filters, p.scorers])).toEqual([
      ['prefill', ['prefill-filter'], ['prefix-cache-scorer×50']],
      ['decode', ['decode-filter'], ['prefix-cache-scorer×50', 'queue-scorer×2']],
    ]);
    const picker = new EndpointPicker({ pool, config });
    const d = await picker.pick(parseRequest({ path: '/v1/completions', headers: {}, body: JSON.stringify({ model: 'm', prompt: 'hi' }) }));
    expect(d.primary.id).toBe('d');
    d.complete({ kind: 'success' });
  });
});

describe('printEffectiveConfig', () => {
  it('prints every plugin, defaulted parameters and explicit weights, and loads back identically', () => {
    const c = load(`${HEAD}plugins:\n- type: load-aware-scorer\n- type: session-id-producer\n  parameters:\n    ttl: 30s\n- type: token-load-scorer\n`, withPrefix());
    const text = c.printEffectiveConfig();
    expect(text).toContain('threshold: 128');
    expect(text).toContain('ttl: 30s');
    expect(text).toContain('name: inflight-load-producer');
    expect(text).toContain('weight: 1');
    const again = load(text, withPrefix());
    expect(again.printEffectiveConfig()).toBe(text);
    expect(profileShape(again)).toEqual(profileShape(c));
  });
  it('prints the flow-control guide and loads it back', () => {
    const c = load(testdata('flow-control-guide.yaml'), withPrefix());
    const again = load(c.printEffectiveConfig(), withPrefix());
    expect(again.effective).toEqual(c.effective);
  });
});
