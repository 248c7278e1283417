import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { EndpointPicker, EndpointPool, ManualClock, createDefaultRegistry, loadConfig, parseLabelSelector, parseRequest, revisionDistribution, type EndpointSpec } from '@switchyard/core';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';
const REV = 'disaggregatedset.x-k8s.io/revision';
const ROLE = 'disaggregatedset.x-k8s.io/role';

/** A ready pod of the set: one endpoint labelled with its revision and role. */
const pod = (name: string, revision: string, role: string, extra: Record<string, string> = {}): EndpointSpec => ({
  id: `default/${name}-rank-0`,
  address: `10.0.${revision.length}.${name.length + Object.keys(extra).length}:8000`,
  labels: { app: 'llm', [REV]: revision, [ROLE]: role, ...extra },
});

const screenerDoc = (gating: string, selectors = '[]'): string => `${HEAD}plugins:
- type: disaggregatedset-rollout-screener
  parameters:
    scope: {labelSelector: "app=llm"}
    headerSelectors: ${selectors}
    revisionGating: ${gating}
- type: queue-scorer
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins: [{pluginRef: queue-scorer}, {pluginRef: max-score-picker}]
`;

function picker(doc: string, specs: readonly EndpointSpec[], draw: () => number, metrics?: Registry) {
  const pool = new EndpointPool();
  const seen = new Set<string>();
  for (const s of specs) {
    const address = seen.has(s.address) ? s.address.replace(/:8000$/, `:${8000 + seen.size}`) : s.address;
    seen.add(address);
    pool.add({ ...s, address });
  }
  const clock = new ManualClock();
  const config = loadConfig(doc, { registry: createDefaultRegistry(), pool, clock, ...(metrics === undefined ? {} : { metrics }) });
  return { pool, picker: new EndpointPicker({ pool, clock, config, random: draw, staleness: { policy: 'ignore' } }) };
}

const request = (headers: Record<string, string> = {}) => parseRequest({ path: '/v1/completions', headers, body: '{"model":"m","prompt":"hi"}' });

describe('revisionDistribution', () => {
  const scope = parseLabelSelector('app=llm');
  const eps = (specs: EndpointSpec[]) => {
    const pool = new EndpointPool();
    specs.forEach((s, i) => pool.add({ ...s, address: `10.1.0.${i + 1}:8000` }));
    return pool.list();
  };
  const fleet = eps([
    pod('a1', 'r1', 'prefill'), pod('a2', 'r1', 'decode'), pod('a3', 'r1', 'decode'), pod('a4', 'r1', 'decode'),
    pod('b1', 'r2', 'prefill'), pod('b2', 'r2', 'decode'),
    pod('c1', 'r3', 'decode'), // no prefill: not covered
    { id: 'default/x-rank-0', address: '10.9.9.9:8000', labels: { app: 'other', [REV]: 'r1', [ROLE]: 'decode' } }, // out of scope
  ]);
  it('sum weighs covered revisions by their pods in the required roles; incomplete ones share 0', () => {
    const d = revisionDistribution(fleet, scope, { revisionLabelKey: REV, roleLabelKey: ROLE, mode: 'sum', roles: ['prefill', 'decode'] });
    expect(d.weights).toEqual(new Map([['r1', 4], ['r2', 2]]));
    expect(d.shares).toEqual(new Map([['r1', 4 / 6], ['r2', 2 / 6], ['r3', 0]]));
  });
  it('max-role weighs by the dominant role (most pods over covered revisions; first listed on ties)', () => {
    const d = revisionDistribution(fleet, scope, { revisionLabelKey: REV, roleLabelKey: ROLE, mode: 'max-role', roles: ['prefill', 'decode'] });
    expect(d.weights).toEqual(new Map([['r1', 3], ['r2', 1]])); // decode: 4 pods vs prefill 2
    const tie = revisionDistribution(eps([pod('a', 'r1', 'p'), pod('b', 'r1', 'd'), pod('c', 'r2', 'p'), pod('e', 'r2', 'p'), pod('f', 'r2', 'd'), pod('g', 'r2', 'd')]), scope, { revisionLabelKey: REV, roleLabelKey: ROLE, mode: 'max-role', roles: ['p', 'd'] });
    expect(tie.weights).toEqual(new Map([['r1', 1], ['r2', 2]]));
  });
  it('counts pods, not ranks', () => {
    const ranks = eps([pod('a', 'r1', 'decode'), { ...pod('a', 'r1', 'decode'), id: 'default/a-rank-1' }]);
    expect(revisionDistribution(ranks, scope, { revisionLabelKey: REV, roleLabelKey: ROLE, mode: 'sum', roles: ['decode'] }).weights).toEqual(new Map([['r1', 1]]));
  });
});

describe('disaggregatedset-rollout-screener', () => {
  const fleet = [pod('old-p', 'r1', 'prefill'), pod('old-d', 'r1', 'decode'), pod('new-p', 'r2', 'prefill'), pod('new-d', 'r2', 'decode'), pod('half', 'r3', 'decode')];
  const gating = '{mode: sum, requireRoles: {values: [prefill, decode]}}';

  it('keeps each request on one covered revision, drawn by weight over sorted revision names', async () => {
    const revisionOf = async (u: number) => {
      const { picker: p } = picker(screenerDoc(gating), fleet, () => u);
      const d = await p.pick(request());
      d.complete({ kind: 'success' });
      return d.primary.labels[REV];
    };
    expect(await revisionOf(0.1)).toBe('r1'); // r1 and r2 weigh 2 each: [0, .5) → r1
    expect(await revisionOf(0.7)).toBe('r2');
  });

  it('a strict header keeps every covered revision and pins its label; no match is 503 and counted', async () => {
    const metrics = new Registry();
    const selectors = `[{name: rev, headerName: X-Revision, labelKey: "${REV}", mode: strict}, {name: role, headerName: x-role, labelKey: "${ROLE}", mode: prefer}]`;
    const { picker: p } = picker(screenerDoc(gating, selectors), fleet, () => 0.1, metrics);
    const pinned = await p.pick(request({ 'x-revision': 'r2' }));
    expect(pinned.primary.labels[REV]).toBe('r2');
    pinned.complete({ kind: 'success' });
    // r3 is not covered (no prefill pod): gating drops it before the header is applied.
    await expect(p.pick(request({ 'x-revision': 'r3' }))).rejects.toMatchObject({ code: 'REJECTED_NO_ENDPOINTS' });
    const text = await metrics.metrics();
    expect(text).toContain('llm_d_epp_disaggregatedset_strict_header_no_match_total{plugin_type="disaggregatedset-rollout-screener",plugin_name="disaggregatedset-rollout-screener",selector="rev"} 1');
    expect(text).toContain('llm_d_epp_disaggregatedset_revision_gating_share{plugin_type="disaggregatedset-rollout-screener",plugin_name="disaggregatedset-rollout-screener",mode="sum",revision="r1"} 0.5');
    expect(text).toContain('revision="r3"} 0');
  });

  it('echoes every selector label of the served endpoint in its response header', async () => {
    const selectors = `[{name: rev, headerName: x-revision, labelKey: "${REV}", mode: strict}, {name: role, headerName: x-role, labelKey: "${ROLE}", mode: prefer}]`;
    const { picker: p } = picker(screenerDoc('{mode: disabled}', selectors), fleet, () => 0.1);
    const d = await p.pick(request());
    const responseHeaders: Record<string, string> = { ...d.responseHeaders };
    d.onResponseStart({ endpoint: d.primary, status: 200, at: 0, responseHeaders });
    expect(responseHeaders).toEqual({ 'x-revision': d.primary.labels[REV], 'x-role': d.primary.labels[ROLE] });
    d.complete({ kind: 'success' });
  });

  it('with gating disabled and no header, every endpoint stays; with no covered revision nothing does', async () => {
    const { picker: open } = picker(screenerDoc('{mode: disabled}'), [pod('half', 'r3', 'decode'), { id: 'plain', address: '10.2.0.1:8000' }], () => 0.1);
    const d = await open.pick(request());
    d.complete({ kind: 'success' });
    const { picker: closed } = picker(screenerDoc(gating), [pod('half', 'r3', 'decode')], () => 0.1);
    await expect(closed.pick(request())).rejects.toMatchObject({ code: 'REJECTED_NO_ENDPOINTS' });
  });

  it('rebuilds the distribution when the pool changes', async () => {
    const { pool, picker: p } = picker(screenerDoc(gating), fleet, () => 0.9);
    pool.remove('default/new-d-rank-0'); // r2 loses its decode pod: only r1 is covered
    const d = await p.pick(request());
    expect(d.primary.labels[REV]).toBe('r1');
    d.complete({ kind: 'success' });
  });

  it("requires llm-d's parameters and names the bad field", () => {
    const load = (params: string) => loadConfig(`${HEAD}plugins:\n- type: disaggregatedset-rollout-screener\n${params}- type: queue-scorer\n`, { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });
    expect(() => load('')).toThrow(/plugins\[0\]\.parameters/);
    expect(() => load('  parameters: {scope: {labelSelector: "app in (a"}, revisionGating: {mode: disabled}}\n')).toThrow(/scope\.labelSelector/);
    expect(() => load('  parameters: {scope: {labelSelector: app=x}, revisionGating: {mode: sum}}\n')).toThrow(/revisionGating\.requireRoles\.values/);
    expect(() => load('  parameters: {scope: {labelSelector: app=x}, revisionGating: {mode: max-role, requireRoles: {values: [a, a]}}}\n')).toThrow(/duplicate role/);
    expect(() => load('  parameters: {scope: {labelSelector: app=x}, revisionGating: {mode: disabled}, headerSelectors: [{name: a, headerName: h, labelKey: k, mode: strict}, {name: a, headerName: H, labelKey: k, mode: prefer}]}\n')).toThrow(/headerSelectors\.1\.name|headerSelectors\[1\]\.name/);
    expect(() => load('  parameters: {scope: {labelSelector: app=x}, revisionGating: {mode: disabled}, headerSelectors: [{name: a, headerName: h, labelKey: k}]}\n')).toThrow(/mode/);
    expect(() => load('  parameters: {scope: {labelSelector: app=x}, revisionGating: {mode: disabled, weight: 1}}\n')).toThrow(/weight/);
  });
});
