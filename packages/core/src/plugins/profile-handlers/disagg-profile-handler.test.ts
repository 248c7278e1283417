import { describe, expect, it } from 'vitest';
import {
  Attributes,
  ENCODERS_HEADER,
  PREFILLER_HEADER,
  Scheduler,
  SwitchyardError,
  createSchedulerConfig,
  decodeFilterPlugin,
  disaggProfileHandlerPlugin,
  encodeFilterPlugin,
  prefillFilterPlugin,
  queueScorerPlugin,
  type DisaggProfileHandler,
  type Filter,
  type Plugin,
  type Scorer,
  type StageDecider,
} from '@switchyard/core';
import { cycleContext, instantiate, poolOf, schedulingRequest } from '../../testing/index.js';

const ROLES = ['decode', 'prefill', 'encode', 'decode'];
const pool = poolOf(4, (i) => ({ waitingQueueSize: [3, 0, 0, 0][i] ?? 0 }), (i) => ({ 'llm-d.ai/role': ROLES[i] ?? '' }));

function setup(params: Record<string, unknown>, deciders: Record<string, boolean | ((peer: string | undefined) => boolean)> = {}) {
  const plugins = new Map<string, Plugin>();
  for (const [name, answer] of Object.entries(deciders)) {
    const d: StageDecider = {
      type: 'test-decider',
      name,
      shouldRun: (_c, req) => (typeof answer === 'function' ? answer(req.attributes.get(Attributes.peerEndpoint)) : answer),
    };
    plugins.set(name, d);
  }
  const handler = instantiate(disaggProfileHandlerPlugin, params, { lookup: (n) => plugins.get(n) }) as DisaggProfileHandler;
  const q = instantiate(queueScorerPlugin) as Scorer;
  const config = createSchedulerConfig({
    profileHandler: handler,
    plugins: [...plugins.values()],
    profiles: [
      { name: 'decode', filters: [instantiate(decodeFilterPlugin) as Filter], scorers: [q] },
      { name: 'prefill', filters: [instantiate(prefillFilterPlugin) as Filter], scorers: [q] },
      { name: 'encode', filters: [instantiate(encodeFilterPlugin) as Filter], scorers: [q] },
    ],
  });
  return { handler, scheduler: new Scheduler(config) };
}

function run(params: Record<string, unknown>, deciders: Record<string, boolean | ((peer: string | undefined) => boolean)> = {}) {
  const { handler, scheduler } = setup(params, deciders);
  const ctx = cycleContext();
  const req = schedulingRequest();
  const result = scheduler.schedule(ctx, req, pool.list());
  const headers: Record<string, string> = {};
  handler.preRequest?.(ctx, req, result, headers);
  return { result, headers, type: handler.decisionType(result) };
}

describe('disagg-profile-handler', () => {
  it('runs decode only when no decider is configured', () => {
    const { result, headers, type } = run({});
    expect([...result.profileResults.keys()]).toEqual(['decode']);
    expect(result.primaryProfileName).toBe('decode');
    expect(result.profileResults.get('decode')?.targets[0]?.id).toBe('e3');
    expect(headers).toEqual({});
    expect(type).toBe('decode-only');
  });

  it('runs prefill after decode when the decider accepts, publishing the decode pick first', () => {
    let peer: string | undefined;
    const { result, headers, type } = run({ deciders: { prefill: 'pd' } }, { pd: (p) => ((peer = p), true) });
    expect(peer).toBe('e3');
    expect([...result.profileResults.keys()]).toEqual(['decode', 'prefill']);
    expect(headers).toEqual({ [PREFILLER_HEADER]: '10.0.0.2:8000' });
    expect(type).toBe('prefill-decode');
  });

  it('skips prefill when the decider declines', () => {
    const { result, headers } = run({ deciders: { prefill: 'pd' } }, { pd: false });
    expect([...result.profileResults.keys()]).toEqual(['decode']);
    expect(headers).toEqual({});
  });

  it('runs encode, then prefill, and sets both headers', () => {
    const { result, headers, type } = run({ deciders: { prefill: 'pd', encode: 'enc' } }, { pd: true, enc: true });
    expect([...result.profileResults.keys()]).toEqual(['decode', 'encode', 'prefill']);
    expect(headers).toEqual({ [PREFILLER_HEADER]: '10.0.0.2:8000', [ENCODERS_HEADER]: '10.0.0.3:8000' });
    expect(type).toBe('encode-prefill-decode');
  });

  it('runs prefill first with stageOrder prefill-first', () => {
    const { result, type } = run({ stageOrder: 'prefill-first' });
    expect([...result.profileResults.keys()]).toEqual(['prefill', 'decode']);
    expect(type).toBe('prefill-decode');
  });

  it('fails the request with 429 when decode finds no endpoint', () => {
    const { scheduler } = setup({});
    const prefillOnly = poolOf(1, undefined, () => ({ 'llm-d.ai/role': 'prefill' }));
    expect(() => scheduler.schedule(cycleContext(), schedulingRequest(), prefillOnly.list())).toThrow(SwitchyardError);
    try {
      scheduler.schedule(cycleContext(), schedulingRequest(), prefillOnly.list());
    } catch (e) {
      expect((e as SwitchyardError).reason).toBe('rejected-saturated');
    }
  });

  it('rejects a prefill decider with prefill-first, unknown deciders and missing profiles', () => {
    expect(() => disaggProfileHandlerPlugin.parameters.parse({ stageOrder: 'prefill-first', deciders: { prefill: 'x' } })).toThrow(/not allowed/);
    expect(() => setup({ deciders: { prefill: 'ghost' } })).toThrow(/decider "ghost" is not a configured plugin/);
    const handler = instantiate(disaggProfileHandlerPlugin, { deciders: { prefill: 'pd' } }, { lookup: () => ({ type: 't', name: 'pd', shouldRun: () => true }) as StageDecider }) as DisaggProfileHandler;
    expect(() => createSchedulerConfig({ profileHandler: handler, profiles: [{ name: 'decode' }] })).toThrow(/"prefill"/);
  });
});
