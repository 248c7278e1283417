import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DATA_PARALLEL_HEADER, EndpointPicker, EndpointPool, PREFILLER_HEADER, SchedulerMetrics, SwitchyardError, createDefaultRegistry, definePlugin, loadConfig, parseRequest, type StageDecider } from '@switchyard/core';

const chat = () => parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] }) });

/** e0 decodes, e1 prefills. */
function fleet(): EndpointPool {
  const pool = new EndpointPool();
  pool.add({ id: 'e0', address: '10.0.0.1:8000', labels: { 'llm-d.ai/role': 'decode' } });
  pool.add({ id: 'e1', address: '10.0.0.2:8000', labels: { 'llm-d.ai/role': 'prefill' } });
  return pool;
}

/** A P/D config in the shape llm-d's guides used before `disagg-profile-handler`. */
function legacyConfig(handler: string, options: { headers?: string; decider?: string } = {}): string {
  return `apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
${options.headers === undefined ? '' : `- type: ${options.headers}\n`}- type: prefill-filter
- type: decode-filter
- type: max-score-picker
- type: queue-scorer
- type: always-disagg-pd-decider
  name: always
${options.decider ?? ''}- type: pd-profile-handler
  parameters:
    ${handler}
schedulingProfiles:
- name: prefill
  plugins:
  - pluginRef: prefill-filter
  - pluginRef: queue-scorer
  - pluginRef: max-score-picker
- name: decode
  plugins:
  - pluginRef: decode-filter
  - pluginRef: queue-scorer
  - pluginRef: max-score-picker
`;
}

/** A stage decider that always declines. */
const neverDecider = definePlugin({
  type: 'never-decider',
  parameters: z.strictObject({}),
  create: (_p, ctx): StageDecider => ({ type: 'never-decider', name: ctx.name, shouldRun: () => false }),
});

async function pick(yaml: string) {
  const pool = fleet();
  const metrics = new SchedulerMetrics();
  const registry = createDefaultRegistry().register(neverDecider);
  const picker = new EndpointPicker({ pool, metrics, config: loadConfig(yaml, { registry, pool }) });
  const decision = await picker.pick(chat());
  decision.complete({ kind: 'success' });
  // llm-d counts pd-profile-handler's decisions in their own family, with the handler and the model.
  expect((await metrics.disaggDecisionTotal.get()).values).toEqual([]);
  const values = (await metrics.pdDecisionTotal.get()).values;
  for (const v of values) expect(v.labels).toMatchObject({ plugin_type: 'pd-profile-handler', plugin_name: 'pd-profile-handler', model_name: 'm' });
  const decisions = values.map((v) => [v.labels.decision_type, v.value]);
  return { decision, decisions };
}

function loadError(yaml: string): SwitchyardError {
  const pool = fleet();
  try {
    loadConfig(yaml, { registry: createDefaultRegistry(), pool });
  } catch (e) {
    expect(e).toBeInstanceOf(SwitchyardError);
    return e as SwitchyardError;
  }
  throw new Error('expected the config to be rejected');
}

describe("llm-d's deprecated pd-profile-handler and header handlers", () => {
  for (const headers of ['prefill-header-handler', 'disagg-headers-handler']) {
    it(`loads an older P/D config with ${headers}: decode is primary, the prefill pod goes in the header`, async () => {
      const { decision, decisions } = await pick(legacyConfig('deciderPluginName: always', { headers }));
      expect(decision.primary.id).toBe('e0');
      expect([...decision.result.profileResults.keys()]).toEqual(['decode', 'prefill']);
      expect(decision.headers[PREFILLER_HEADER]).toBe('10.0.0.2:8000');
      expect(decisions).toEqual([['prefill-decode', 1]]);
    });
  }

  it('sets no prefill header without a header handler, as upstream', async () => {
    const { decision } = await pick(legacyConfig('deciderPluginName: always'));
    expect([...decision.result.profileResults.keys()]).toEqual(['decode', 'prefill']);
    expect(decision.headers[PREFILLER_HEADER]).toBeUndefined();
  });

  it('runs decode only when the decider declines', async () => {
    const decider = '- type: never-decider\n  name: never\n';
    const { decision, decisions } = await pick(legacyConfig('deciderPluginName: never', { headers: 'prefill-header-handler', decider }));
    expect([...decision.result.profileResults.keys()]).toEqual(['decode']);
    expect(decision.headers[PREFILLER_HEADER]).toBeUndefined();
    expect(decisions).toEqual([['decode-only', 1]]);
  });

  it('with primaryPort, sends the decode pick to that port of its host and names the rank in x-data-parallel-host-port', async () => {
    const { decision } = await pick(legacyConfig('deciderPluginName: always\n    primaryPort: 9000', { headers: 'prefill-header-handler' }));
    expect(decision.primary.id).toBe('e0');
    expect(decision.primary.address).toBe('10.0.0.1:9000');
    expect(decision.headers[DATA_PARALLEL_HEADER]).toBe('10.0.0.1:8000');
    expect(decision.headers['x-gateway-destination-endpoint']).toBe('10.0.0.1:9000');
    // The prefill pick keeps its own port.
    expect(decision.headers[PREFILLER_HEADER]).toBe('10.0.0.2:8000');
  });

  it('names what is missing or unsupported', () => {
    expect(loadError(legacyConfig('decodeProfile: decode')).message).toMatch(/decider "prefix-based-pd-decider" is not a configured plugin/);
    expect(loadError(legacyConfig('threshold: 10')).message).toMatch(/threshold: was removed .*prefix-based-pd-decider/);
    expect(loadError(legacyConfig('prefillProfile: prefill-stage\n    deciderPluginName: always')).message).toMatch(/"prefill-stage"/);
  });
});
