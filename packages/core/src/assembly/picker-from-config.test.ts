import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schedulingRequest } from '../testing/index.js';
import { EndpointPool, ManualClock, SwitchyardError, createPickerFromConfig, definePlugin, parseRequest, type AdmissionController, type PluginPack, type Scorer } from '@switchyard/core';

const HEAD = { apiVersion: 'llm-d.ai/v1', kind: 'EndpointPickerConfig' };

function pool(): EndpointPool {
  const p = new EndpointPool();
  p.add({ id: 'a', address: '10.0.0.1:8000' });
  p.add({ id: 'b', address: '10.0.0.2:8000' });
  return p;
}

/** A scorer type that always prefers endpoint `id`, and records closes. */
function preferring(type: string, id: string, closed: string[] = []) {
  return definePlugin({
    type,
    parameters: z.strictObject({}).prefault({}),
    create: (_p, ctx): Scorer & { close(): void } => ({
      type,
      name: ctx.name,
      score: (_c, _r, eps) => new Map(eps.map((e) => [e.id, e.id === id ? 1 : 0])),
      close: () => { closed.push(ctx.name); },
    }),
  });
}

const request = () => parseRequest({ path: '/v1/completions', headers: {}, body: Buffer.from('{"model":"m","prompt":"hi"}') });
const withScorer = (type: string) => ({ ...HEAD, plugins: [{ type }], schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: type, weight: 1 }] }] });

describe('createPickerFromConfig', () => {
  it('loads llm-d defaults without a config and picks', async () => {
    const { picker, admission, config } = createPickerFromConfig({ pool: pool(), clock: new ManualClock() });
    expect(admission).toBeUndefined();
    expect(config.profiles.has('default')).toBe(true);
    const d = await picker.pick(request());
    expect(['a', 'b']).toContain(d.primary.id);
    d.complete({ kind: 'success' });
    await picker.close();
  });

  it('lets a pack replace a built-in type, and refuses two packs sharing one', async () => {
    const replacing: PluginPack = { name: 'mine', plugins: [preferring('queue-scorer', 'b')] };
    const { picker } = createPickerFromConfig({ config: withScorer('queue-scorer'), pool: pool(), packs: [replacing] });
    const d = await picker.pick(request());
    expect(d.primary.id).toBe('b');
    d.complete({ kind: 'success' });
    await picker.close();
    const again: PluginPack = { name: 'theirs', plugins: [preferring('queue-scorer', 'a')] };
    expect(() => createPickerFromConfig({ pool: pool(), packs: [replacing, again] })).toThrow('plugin type "queue-scorer" of pack "theirs" is already registered by pack "mine"');
  });

  it('adds a pack’s default types and lets its admission factory answer', async () => {
    const admitted: string[] = [];
    const admission: AdmissionController = {
      admit: (r) => {
        admitted.push(r.request.model);
        return Promise.resolve({ release: () => undefined });
      },
    };
    const pack: PluginPack = {
      name: 'gated',
      plugins: [preferring('gated-scorer', 'a')],
      defaultTypes: (s) => (s.featureGates.includes('flowControl') ? ['gated-scorer', 'not-registered'] : []),
      admission: ({ config }) => (config.plugins.has('gated-scorer') ? admission : undefined),
    };
    const off = createPickerFromConfig({ pool: pool(), packs: [pack] });
    expect(off.admission).toBeUndefined();
    expect(off.config.plugins.has('gated-scorer')).toBe(false);
    const on = createPickerFromConfig({ config: { ...HEAD, featureGates: ['flowControl'] }, pool: pool(), packs: [pack] });
    expect(on.admission).toBe(admission);
    expect(on.config.plugins.has('gated-scorer')).toBe(true);
    expect(on.config.plugins.has('not-registered')).toBe(false);
    const d = await on.picker.pick(request());
    expect(admitted).toEqual(['m']);
    d.complete({ kind: 'success' });
    await Promise.all([off.picker.close(), on.picker.close()]);
  });

  it('closes what it created when a step fails, and names the field', () => {
    const closed: string[] = [];
    const pack: PluginPack = {
      name: 'failing',
      plugins: [preferring('holder', 'a', closed)],
      admission: () => {
        throw new SwitchyardError('CONFIG_INVALID', 'flowControl.maxRequests: must be positive');
      },
    };
    expect(() => createPickerFromConfig({ config: withScorer('holder'), pool: pool(), packs: [pack] })).toThrow('flowControl.maxRequests: must be positive');
    expect(closed).toEqual(['holder']);
    expect(() => createPickerFromConfig({ config: { ...HEAD, plugins: [{ type: 'nope' }] }, pool: pool() })).toThrow(/^plugins\[0\]\.type: unknown plugin type "nope"/);
  });
});

describe('createPickerFromConfig: legacy admission sheds on the config’s saturation detector', () => {
  /** Pod a has 28 waiting (5.6 with Q 5), pod b is idle: mean 2.8 uncapped, 0.5 capped at 1. */
  function loaded(clock: ManualClock): EndpointPool {
    const p = pool();
    const m = (waiting: number) => ({ waitingQueueSize: waiting, runningRequestsSize: 0, kvCacheUsagePercent: 0, activeModels: [], waitingModels: [], maxActiveModels: 0, cacheBlockSize: 0, cacheNumBlocks: 0, updatedAt: clock.now() });
    p.setMetrics('a', m(28));
    p.setMetrics('b', m(0));
    return p;
  }
  const sheddable = schedulingRequest({ priority: -1 });
  const withDetector = (parameters: object) => ({
    ...HEAD,
    plugins: [{ type: 'queue-scorer' }, { name: 'sat', type: 'utilization-detector', parameters }],
    schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'queue-scorer' }] }],
    flowControl: { saturationDetector: { pluginRef: 'sat' } },
  });

  it('uses llm-d’s uncapped average without a named detector: one backed-up pod sheds the fleet', async () => {
    const clock = new ManualClock(1_000);
    const { picker } = createPickerFromConfig({ pool: loaded(clock), clock });
    expect(() => picker.admission.admitNow?.(sheddable)).toThrow('pool saturation 2.80');
    await picker.close();
  });

  it('honours flowControl.saturationDetector with the gate off, so endpointSaturationCap changes admission', async () => {
    const clock = new ManualClock(1_000);
    const capped = createPickerFromConfig({ config: withDetector({ endpointSaturationCap: 1 }), pool: loaded(clock), clock });
    expect(capped.admission).toBeUndefined();
    expect(capped.picker.admission.admitNow?.(sheddable)).toBeDefined();
    await capped.picker.close();
    const strict = createPickerFromConfig({ config: withDetector({ queueDepthThreshold: 50 }), pool: loaded(clock), clock });
    expect(strict.picker.admission.admitNow?.(sheddable)).toBeDefined();
    await strict.picker.close();
  });

  it('rejects a reference to a plugin that is not a saturation detector, naming the field', () => {
    const config = { ...withDetector({}), flowControl: { saturationDetector: { pluginRef: 'queue-scorer' } } };
    expect(() => createPickerFromConfig({ config, pool: pool() })).toThrow('flowControl.saturationDetector.pluginRef: plugin "queue-scorer" (type queue-scorer) is not a saturation detector');
  });
});
