import { describe, expect, it } from 'vitest';
import {
  Attributes,
  ManualClock,
  byLabelFilterPlugin,
  byLabelSelectorFilterPlugin,
  SESSION_TOKEN_HEADER,
  decodeFilterPlugin,
  encodeFilterPlugin,
  encodeSessionToken,
  labelSelectorFilterPlugin,
  prefillFilterPlugin,
  sessionAffinityFilterPlugin,
  sessionAffinityScorerPlugin,
  sessionIdProducerPlugin,
  type DataProducer,
  type Filter,
  type RequestLifecycle,
  type Scorer,
} from '@switchyard/core';
import { cycleContext, endpoints, instantiate, schedulingRequest, scoresOf } from '../../testing/index.js';

const ROLES = ['decode', 'prefill', 'encode', 'prefill-decode', 'both', 'encode-prefill', 'encode-prefill-decode', 'other', undefined] as const;
const eps = endpoints(ROLES.length, undefined, (i) => (ROLES[i] === undefined ? {} : { 'llm-d.ai/role': ROLES[i] }));
const rolesAfter = (f: Filter): (string | undefined)[] =>
  f.filter(cycleContext(), schedulingRequest(), eps).map((e) => e.labels['llm-d.ai/role']);

describe('role filters', () => {
  it('decode-filter keeps decode roles and unlabeled endpoints', () => {
    expect(rolesAfter(instantiate(decodeFilterPlugin) as Filter)).toEqual(['decode', 'prefill-decode', 'both', 'encode-prefill-decode', undefined]);
  });
  it('prefill-filter keeps prefill roles only', () => {
    expect(rolesAfter(instantiate(prefillFilterPlugin) as Filter)).toEqual(['prefill', 'prefill-decode', 'both', 'encode-prefill', 'encode-prefill-decode']);
  });
  it('encode-filter keeps encode roles only', () => {
    expect(rolesAfter(instantiate(encodeFilterPlugin) as Filter)).toEqual(['encode', 'encode-prefill', 'encode-prefill-decode']);
  });
  it('returns the input array itself when nothing is removed', () => {
    const plain = endpoints(3);
    const f = instantiate(decodeFilterPlugin) as Filter;
    expect(f.filter(cycleContext(), schedulingRequest(), plain)).toBe(plain);
  });
});

describe('label-selector-filter', () => {
  const labelled = endpoints(3, undefined, (i) => [{ zone: 'a', gpu: 'h100' }, { zone: 'b', gpu: 'a100' }, { zone: 'a' }][i] ?? {});
  const run = (params: unknown): string[] =>
    (instantiate(labelSelectorFilterPlugin, params) as Filter).filter(cycleContext(), schedulingRequest(), labelled).map((e) => e.id);
  it('matches matchLabels and every expression operator', () => {
    expect(run({ matchLabels: { zone: 'a' } })).toEqual(['e0', 'e2']);
    expect(run({ matchExpressions: [{ key: 'gpu', operator: 'In', values: ['a100', 'h100'] }] })).toEqual(['e0', 'e1']);
    expect(run({ matchExpressions: [{ key: 'gpu', operator: 'NotIn', values: ['a100'] }] })).toEqual(['e0', 'e2']);
    expect(run({ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] })).toEqual(['e0', 'e1']);
    expect(run({ matchLabels: { zone: 'a' }, matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] })).toEqual(['e2']);
    expect(run({})).toEqual(['e0', 'e1', 'e2']);
  });
  it('rejects In without values and Exists with values', () => {
    expect(() => labelSelectorFilterPlugin.parameters.parse({ matchExpressions: [{ key: 'k', operator: 'In' }] })).toThrow(/needs at least one value/);
    expect(() => labelSelectorFilterPlugin.parameters.parse({ matchExpressions: [{ key: 'k', operator: 'Exists', values: ['x'] }] })).toThrow(/takes no values/);
  });
});

describe("llm-d's deprecated label filters", () => {
  const labelled = endpoints(3, undefined, (i) => [{ tier: 'gold' }, { tier: 'bronze' }, {}][i] ?? {});
  const ids = (f: Filter): string[] => f.filter(cycleContext(), schedulingRequest(), labelled).map((e) => e.id);
  it('by-label keeps valid values, and unlabeled endpoints only with allowsNoLabel', () => {
    expect(ids(instantiate(byLabelFilterPlugin, { label: 'tier', validValues: ['gold'] }) as Filter)).toEqual(['e0']);
    expect(ids(instantiate(byLabelFilterPlugin, { label: 'tier', validValues: ['gold'], allowsNoLabel: true }) as Filter)).toEqual(['e0', 'e2']);
    expect(ids(instantiate(byLabelFilterPlugin, { label: 'tier', validValues: ['gold', 'bronze'] }) as Filter)).toEqual(['e0', 'e1']);
    expect(() => byLabelFilterPlugin.parameters.parse({ validValues: ['gold'] })).toThrow(/label/);
  });
  it('by-label-selector is label-selector-filter under its old name', () => {
    const f = instantiate(byLabelSelectorFilterPlugin, { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['bronze'] }] }) as Filter;
    expect(f.type).toBe('by-label-selector');
    expect(ids(f)).toEqual(['e0', 'e2']);
  });
});

describe('session affinity (encoded endpoint header)', () => {
  const three = endpoints(3);
  const withToken = (id: string) => schedulingRequest({ request: { headers: { [SESSION_TOKEN_HEADER]: encodeSessionToken(id) } } });
  it('the scorer gives 1 to the token endpoint only, 0 without a token', () => {
    const s = instantiate(sessionAffinityScorerPlugin) as Scorer;
    expect(scoresOf(s, withToken('e1'), three)).toEqual([0, 1, 0]);
    expect(scoresOf(s, schedulingRequest(), three)).toEqual([0, 0, 0]);
  });
  it('the filter pins to the token endpoint when it is a candidate, else keeps all', () => {
    const f = instantiate(sessionAffinityFilterPlugin) as Filter;
    expect(f.filter(cycleContext(), withToken('e2'), three).map((e) => e.id)).toEqual(['e2']);
    expect(f.filter(cycleContext(), withToken('gone'), three)).toBe(three);
  });
  it('the scorer sets a token for the chosen endpoint on the response', () => {
    const s = instantiate(sessionAffinityScorerPlugin) as Scorer & RequestLifecycle;
    const req = schedulingRequest();
    const target = three[2]!;
    s.preRequest?.(cycleContext(), req, { primaryProfileName: 'default', profileResults: new Map([['default', { targets: [target], scored: [] }]]) }, {});
    expect(req.attributes.get(Attributes.responseHeaders)).toEqual({ [SESSION_TOKEN_HEADER]: encodeSessionToken('e2') });
  });
});

describe('session affinity (session_id strategy)', () => {
  it('pins a session id to the endpoint of its last request until the TTL passes', () => {
    const clock = new ManualClock();
    const producer = instantiate(sessionIdProducerPlugin, { ttl: '10s' }, { clock }) as DataProducer & RequestLifecycle;
    const scorer = instantiate(sessionAffinityScorerPlugin, { strategy: 'session_id' }) as Scorer;
    expect(scorer.consumes).toEqual(['session-endpoint']);
    const three = endpoints(3);
    const ctx = cycleContext({ clock });
    const request = () => schedulingRequest({ request: { headers: { 'x-session-id': 'abc' } } });

    const first = request();
    void producer.produce(ctx, first, three);
    expect(scoresOf(scorer, first, three)).toEqual([0, 0, 0]);
    producer.preRequest?.(ctx, first, { primaryProfileName: 'p', profileResults: new Map([['p', { targets: [three[1]!], scored: [] }]]) }, {});

    clock.advance(9_000);
    const second = request();
    void producer.produce(ctx, second, three);
    expect(scoresOf(scorer, second, three)).toEqual([0, 1, 0]);
    producer.preRequest?.(ctx, second, { primaryProfileName: 'p', profileResults: new Map([['p', { targets: [three[1]!], scored: [] }]]) }, {});

    clock.advance(9_000); // renewed at 9s, so still pinned at 18s
    const third = request();
    void producer.produce(ctx, third, three);
    expect(scoresOf(scorer, third, three)).toEqual([0, 1, 0]);

    clock.advance(2_000); // 20s > 9s + 10s
    const fourth = request();
    void producer.produce(ctx, fourth, three);
    expect(scoresOf(scorer, fourth, three)).toEqual([0, 0, 0]);
  });
});
