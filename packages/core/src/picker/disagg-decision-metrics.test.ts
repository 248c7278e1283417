import { describe, expect, it } from 'vitest';
import { EndpointPicker, EndpointPool, SchedulerMetrics, createDefaultRegistry, loadConfig, parseRequest } from '@switchyard/core';

const chat = (model: string) => parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }) });

function fleet(): EndpointPool {
  const pool = new EndpointPool();
  pool.add({ id: 'e0', address: '10.0.0.1:8000', labels: { 'llm-d.ai/role': 'decode' } });
  pool.add({ id: 'e1', address: '10.0.0.2:8000', labels: { 'llm-d.ai/role': 'prefill' } });
  return pool;
}

const profiles = `schedulingProfiles:
- name: prefill
  plugins:
  - pluginRef: prefill-filter
  - pluginRef: max-score-picker
- name: decode
  plugins:
  - pluginRef: decode-filter
  - pluginRef: max-score-picker
`;

const parameters: Readonly<Record<string, string>> = {
  'pd-profile-handler': 'deciderPluginName: always',
  'disagg-profile-handler': 'deciders: {prefill: always}',
};

const config = (handler: string): string => `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: prefill-filter
- type: decode-filter
- type: max-score-picker
- type: always-disagg-pd-decider
  name: always
- type: ${handler}
  name: my-handler
  parameters:
    ${parameters[handler] ?? ''}
${profiles}`;

async function decide(handler: string, model: string): Promise<string> {
  const pool = fleet();
  const metrics = new SchedulerMetrics();
  const picker = new EndpointPicker({ pool, metrics, config: loadConfig(config(handler), { registry: createDefaultRegistry(), pool }) });
  const decision = await picker.pick(chat(model));
  decision.complete({ kind: 'success' });
  return metrics.registry.metrics();
}

describe("llm-d's disaggregation decision counters", () => {
  it('pd-profile-handler: pd_decision_total with the handler, the model and the stages, and its deprecated twin', async () => {
    const text = await decide('pd-profile-handler', 'm');
    expect(text).toContain('\nllm_d_epp_pd_decision_total{plugin_name="my-handler",plugin_type="pd-profile-handler",model_name="m",decision_type="prefill-decode"} 1\n');
    expect(text).toContain('\nllm_d_inference_scheduler_pd_decision_total{model_name="m",decision_type="prefill-decode"} 1\n');
    expect(text).not.toMatch(/^llm_d_epp_disagg_decision_total\{/m);
  });

  it('disagg-profile-handler: disagg_decision_total with the handler, the model and the stages, and its deprecated twin', async () => {
    const text = await decide('disagg-profile-handler', 'big');
    expect(text).toContain('\nllm_d_epp_disagg_decision_total{plugin_name="my-handler",plugin_type="disagg-profile-handler",model_name="big",decision_type="prefill-decode"} 1\n');
    expect(text).toContain('\nllm_d_inference_scheduler_disagg_decision_total{model_name="big",decision_type="prefill-decode"} 1\n');
    expect(text).not.toMatch(/^llm_d_epp_pd_decision_total\{/m);
  });

  it('a decision without a model (APIs such as /generate carry none) is counted as unknown, as llm-d', async () => {
    const metrics = new SchedulerMetrics();
    metrics.recordDisaggDecision({ type: 'disagg-profile-handler', name: 'h' }, '', 'decode-only');
    expect(await metrics.registry.metrics()).toContain('\nllm_d_epp_disagg_decision_total{plugin_name="h",plugin_type="disagg-profile-handler",model_name="unknown",decision_type="decode-only"} 1\n');
  });
});
