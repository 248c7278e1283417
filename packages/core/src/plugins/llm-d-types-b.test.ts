import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Attributes,
  createDefaultRegistry,
  endpointsNamedBy,
  headerBasedTestingFilterPlugin,
  headerLabelAffinityScorerPlugin,
  headerProfileHandlerPlugin,
  isFilter,
  isProfileHandler,
  loadConfig,
  SwitchyardError,
  topologyAffinity,
  topologyAffinityFilterPlugin,
  topologyAffinityScorerPlugin,
  topologyAttribute,
  topologyExtractorPlugin,
  utilizationFilterPlugin,
  type Endpoint,
  type EndpointPool,
  type InFlightLoadView,
  type Plugin,
  type SchedulingProfile,
  type SchedulingRequest,
  type TopologyView,
} from '@switchyard/core';
import { cycleContext, instantiate, poolOf, schedulingRequest, scoresOf } from '@switchyard/core/testing';

const ids = (es: readonly Endpoint[]) => es.map((e) => e.id);
const withHeaders = (headers: Record<string, string>) => schedulingRequest({ request: { headers } });
function asFilter(p: Plugin) {
  if (!isFilter(p)) throw new Error('not a filter');
  return p;
}

describe('header-based-testing-filter', () => {
  // e0 10.0.0.1:8000, e1 10.0.0.2:8000, e2 10.0.0.3:8000; e3 10.0.0.1:9000 (another rank of e0's pod); e4 [fd00::1]:8000.
  const pool = poolOf(['e0', 'e1', 'e2']);
  pool.add({ id: 'e3', address: '10.0.0.1:9000' });
  pool.add({ id: 'e4', address: '[fd00::1]:8000' });
  const eps = pool.list();
  const filter = asFilter(instantiate(headerBasedTestingFilterPlugin));
  const run = (header?: string) => ids(filter.filter(cycleContext(), withHeaders(header === undefined ? {} : { 'test-epp-endpoint-selection': header }), eps));

  it('keeps the named endpoints in header order, de-duplicated; ip:port exactly, a bare ip every port', () => {
    expect(run('10.0.0.3:8000, 10.0.0.2:8000')).toEqual(['e2', 'e1']);
    expect(run('10.0.0.1')).toEqual(['e0', 'e3']);
    expect(run('10.0.0.1:9000,10.0.0.1,10.0.0.1:9000')).toEqual(['e3', 'e0']);
    expect(run('[fd00::1]:8000')).toEqual(['e4']);
    expect(run('fd00::1')).toEqual(['e4']);
    expect(run('[fd00::1]')).toEqual(['e4']);
    expect(run('10.0.0.9:8000')).toEqual([]);
  });

  it('keeps nothing without the header or with a blank one', () => {
    expect(run()).toEqual([]);
    expect(run(' , ')).toEqual([]);
  });

  it('never returns an endpoint twice or one it was not given, whatever the header', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('10.0.0.1', '10.0.0.2:8000', '10.0.0.1:9000', '[fd00::1]:8000', 'x', '', ' 10.0.0.3:8000 '), { maxLength: 8 }), (parts) => {
        const out = endpointsNamedBy(parts.join(','), eps);
        expect(new Set(out).size).toBe(out.length);
        for (const e of out) expect(eps).toContain(e);
      }),
    );
  });
});

describe('header-label-affinity-scorer', () => {
  const eps = poolOf(3, undefined, (i) => (i === 2 ? {} : { 'llm-d.ai/tier': i === 0 ? 'gold' : 'silver' })).list();
  const scorer = instantiate(headerLabelAffinityScorerPlugin, { headerName: 'X-Tier', labelKey: 'llm-d.ai/tier' });

  it('scores 1 where the label equals the header (header name matched lower-cased), else 0', () => {
    expect(scoresOf(scorer, withHeaders({ 'x-tier': 'silver' }), eps)).toEqual([0, 1, 0]);
    expect(scoresOf(scorer, withHeaders({ 'x-tier': 'bronze' }), eps)).toEqual([0, 0, 0]);
    expect(scoresOf(scorer, withHeaders({}), eps)).toEqual([0, 0, 0]);
  });

  it('requires both parameters, naming the missing one', () => {
    expect(() => instantiate(headerLabelAffinityScorerPlugin, {})).toThrow(/headerName/);
    expect(() => instantiate(headerLabelAffinityScorerPlugin, { headerName: 'x-tier' })).toThrow(/labelKey/);
    expect(() => instantiate(headerLabelAffinityScorerPlugin, { headerName: ' ', labelKey: 'k' })).toThrow(/headerName/);
  });
});

describe('topology affinity', () => {
  const topo = (hostname: string, rack: string, zone: string, region: string) => ({ 'kubernetes.io/hostname': hostname, 'topology.kubernetes.io/rack': rack, 'topology.kubernetes.io/zone': zone, 'topology.kubernetes.io/region': region });
  // peer on h1/r1/z1/eu; same host, same rack, same zone, same region, nothing shared, no topology.
  const labels = [topo('h1', 'r1', 'z1', 'eu'), topo('h1', 'r1', 'z1', 'eu'), topo('h2', 'r1', 'z1', 'eu'), topo('h3', 'r2', 'z1', 'eu'), topo('h4', 'r3', 'z2', 'eu'), topo('h5', 'r4', 'z3', 'us'), {}];
  const pool: EndpointPool = poolOf(['peer', 'host', 'rack', 'zone', 'region', 'none', 'unknown'], undefined, (i) => labels[i] ?? {});
  const candidates = pool.list().slice(1);
  const extractor = instantiate(topologyExtractorPlugin) as unknown as TopologyView & { produce(c: unknown, r: SchedulingRequest): void };

  function secondStage(peer: string | undefined): SchedulingRequest {
    const r = schedulingRequest();
    extractor.produce(cycleContext(), r);
    if (peer !== undefined) r.attributes.set(Attributes.peerEndpoint, peer);
    return r;
  }

  it('ranks shared levels host > rack > zone > region, each needing equal non-empty values', () => {
    const t = (hostname: string, rack = '', zone = '', region = '') => ({ hostname, rack, zone, region });
    expect(topologyAffinity(t('a', 'r'), t('a', 'x'))).toBe('host');
    expect(topologyAffinity(t('a', 'r'), t('b', 'r'))).toBe('rack');
    expect(topologyAffinity(t('', '', 'z'), t('', '', 'z'))).toBe('zone');
    expect(topologyAffinity(t('', '', '', 'eu'), t('', '', '', 'eu'))).toBe('region');
    expect(topologyAffinity(t(''), t(''))).toBeUndefined();
  });

  it('filter: keeps candidates at least as close as minAffinity; drops those without topology', () => {
    const run = (minAffinity: string | undefined, peer: string | undefined = 'peer') => {
      const f = asFilter(instantiate(topologyAffinityFilterPlugin, minAffinity === undefined ? {} : { minAffinity }, { pool }));
      return ids(f.filter(cycleContext(), secondStage(peer), candidates));
    };
    expect(run(undefined)).toEqual(['host']);
    expect(run('rack')).toEqual(['host', 'rack']);
    expect(run('zone')).toEqual(['host', 'rack', 'zone']);
    expect(run('region')).toEqual(['host', 'rack', 'zone', 'region']);
  });

  it('filter: passes every candidate without a peer, and fails open when nothing is close enough', () => {
    const f = asFilter(instantiate(topologyAffinityFilterPlugin, { minAffinity: 'host' }, { pool }));
    expect(ids(f.filter(cycleContext(), secondStage(undefined), candidates))).toEqual(ids(candidates));
    const far = candidates.filter((e) => e.id === 'none' || e.id === 'unknown');
    expect(ids(f.filter(cycleContext(), secondStage('peer'), far))).toEqual(['none', 'unknown']);
    expect(() => instantiate(topologyAffinityFilterPlugin, { minAffinity: 'pod' })).toThrow(/minAffinity/);
  });

  it('scorer: 1 / 0.2 / 0.05 / 0.02 / 0 by shared level; 0 for all without a peer or a topology producer', () => {
    const scorer = instantiate(topologyAffinityScorerPlugin, {}, { pool });
    expect(scoresOf(scorer, secondStage('peer'), candidates)).toEqual([1, 0.2, 0.05, 0.02, 0, 0]);
    expect(scoresOf(scorer, secondStage(undefined), candidates)).toEqual([0, 0, 0, 0, 0, 0]);
    const named = instantiate(topologyAffinityScorerPlugin, { topologyProducerName: 'other' }, { pool });
    expect(scoresOf(named, secondStage('peer'), candidates)).toEqual([0, 0, 0, 0, 0, 0]);
    // The producer's attribute is per instance name.
    expect(topologyAttribute('other').name).toBe('Topology/other');
  });
});

describe('utilization-filter', () => {
  const pool = poolOf(3, (i) => ({ runningRequestsSize: [1, 5, 9][i] ?? 0, waitingQueueSize: [0, 2, 4][i] ?? 0, kvCacheUsagePercent: [0.1, 0.5, 0.95][i] ?? 0 }));
  pool.add({ id: 'fresh', address: '10.0.0.9:8000' }); // no metrics yet: every value reads 0
  const eps = pool.list();
  const run = (params: object, request = schedulingRequest()) => ids(asFilter(instantiate(utilizationFilterPlugin, params)).filter(cycleContext(), request, eps));

  it('drops an endpoint when any condition is exceeded (value > maxValue), missing metrics reading 0', () => {
    expect(run({ conditions: [{ metric: 'running-requests', maxValue: 5 }] })).toEqual(['e0', 'e1', 'fresh']);
    expect(run({ conditions: [{ metric: 'waiting-queue', maxValue: 1 }] })).toEqual(['e0', 'fresh']);
    expect(run({ conditions: [{ metric: 'kv-cache-utilization', maxValue: 0.9 }] })).toEqual(['e0', 'e1', 'fresh']);
    expect(run({ conditions: [{ metric: 'running-requests', maxValue: 9 }, { metric: 'kv-cache-utilization', maxValue: 0.4 }] })).toEqual(['e0', 'fresh']);
  });

  it('reads active requests from the in-flight load attribute', () => {
    const r = schedulingRequest();
    const load: InFlightLoadView = { requests: (e) => (e.id === 'e1' ? 3 : 0), tokens: () => 0 };
    r.attributes.set(Attributes.inFlightLoad, load);
    expect(run({ conditions: [{ metric: 'active-requests', maxValue: 2 }] }, r)).toEqual(['e0', 'e2', 'fresh']);
  });

  it('returns nothing when all are over, unless fallbackOnEmpty', () => {
    const over = { conditions: [{ metric: 'kv-cache-utilization', maxValue: 0 }] };
    const busy = poolOf(1, () => ({ kvCacheUsagePercent: 0.5 })).list();
    expect(asFilter(instantiate(utilizationFilterPlugin, over)).filter(cycleContext(), schedulingRequest(), busy)).toEqual([]);
    expect(ids(asFilter(instantiate(utilizationFilterPlugin, { ...over, fallbackOnEmpty: true })).filter(cycleContext(), schedulingRequest(), busy))).toEqual(['e0']);
  });

  it('validates conditions, naming the field', () => {
    expect(() => instantiate(utilizationFilterPlugin, { conditions: [] })).toThrow(/conditions/);
    expect(() => instantiate(utilizationFilterPlugin, { conditions: [{ metric: 'waiting-queue' }] })).toThrow(/maxValue/);
    expect(() => instantiate(utilizationFilterPlugin, { conditions: [{ metric: 'waiting-queue', maxValue: -1 }] })).toThrow(/maxValue/);
    expect(() => instantiate(utilizationFilterPlugin, { conditions: [{ metric: 'kv-cache-utilization', maxValue: 1.5 }] })).toThrow(/maxValue/);
    expect(() => instantiate(utilizationFilterPlugin, { conditions: [{ metric: 'gpu', maxValue: 1 }] })).toThrow(/metric/);
  });

  it('accepts inFlightLoadProducerName in a config, reported as not acted on', () => {
    const loaded = loadConfig(
      `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: utilization-filter
  parameters: { inFlightLoadProducerName: my-load, conditions: [{ metric: active-requests, maxValue: 4 }] }
`,
      { registry: createDefaultRegistry(), pool: poolOf(1) },
    );
    expect(loaded.notActedOn.map((n) => `${n.type}.${n.parameter}`)).toContain('utilization-filter.inFlightLoadProducerName');
  });
});

describe('header-profile-handler', () => {
  const profile = (name: string) => ({ name }) as unknown as SchedulingProfile;
  const profiles = new Map([['decode', profile('decode')], ['canary', profile('canary')]]);
  const handler = (params: object = {}) => {
    const h = instantiate(headerProfileHandlerPlugin, params);
    if (!isProfileHandler(h)) throw new Error('not a profile handler');
    return h;
  };
  const names = (h: ReturnType<typeof handler>, headers: Record<string, string>, ps: ReadonlyMap<string, SchedulingProfile> = profiles) =>
    h.pickProfiles(cycleContext(), withHeaders(headers), ps, new Map()).map((p) => p.name);

  it('runs the profile the epp-profile header names (trimmed), the default without it, the only one when there is one', () => {
    expect(names(handler(), { 'epp-profile': ' canary ' })).toEqual(['canary']);
    expect(names(handler(), {})).toEqual(['decode']);
    expect(names(handler(), { 'epp-profile': '  ' })).toEqual(['decode']);
    expect(names(handler({ headerName: 'X-Route', defaultProfile: 'canary' }), {})).toEqual(['canary']);
    expect(names(handler({ headerName: 'X-Route' }), { 'x-route': 'canary' })).toEqual(['canary']);
    expect(names(handler(), { 'epp-profile': 'nope' }, new Map([['solo', profile('solo')]]))).toEqual(['solo']);
  });

  it('runs nothing for an unknown profile name, and the request fails with 429 naming the value', () => {
    const h = handler();
    expect(names(h, { 'epp-profile': 'nope' })).toEqual([]);
    let error: unknown;
    try {
      h.processResults(cycleContext(), withHeaders({ 'epp-profile': 'nope' }), new Map());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SwitchyardError);
    expect((error as SwitchyardError).code).toBe('REJECTED_SATURATED');
    expect((error as SwitchyardError).message).toContain('"nope"');
  });

  it('makes the profile that ran primary', () => {
    const target = poolOf(1).list()[0]!;
    const result = handler().processResults(cycleContext(), withHeaders({ 'epp-profile': 'canary' }), new Map([['canary', { targets: [target], scored: [] }]]));
    expect(result.primaryProfileName).toBe('canary');
  });
});
