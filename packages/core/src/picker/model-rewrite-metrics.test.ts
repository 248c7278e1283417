import { describe, expect, it } from 'vitest';
import { EndpointPicker, EndpointPool, ModelRewriteStore, SchedulerMetrics, parseRequest } from '@switchyard/core';

const chat = (model: string) => parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }) });

function pool(): EndpointPool {
  const p = new EndpointPool();
  p.add({ id: 'e0', address: '10.0.0.1:8000' });
  return p;
}

describe('model_rewrite_decisions_total', () => {
  it('counts each rewrite by the InferenceModelRewrite whose rule applied, with both models, and feeds its deprecated twin', async () => {
    const metrics = new SchedulerMetrics();
    const rewrites = new ModelRewriteStore([{ name: 'canary', rules: [{ matches: ['llama'], targets: [{ modelRewrite: 'llama-v2', weight: 1 }] }] }]);
    const picker = new EndpointPicker({ pool: pool(), metrics, rewrites });
    for (const model of ['llama', 'llama', 'qwen']) (await picker.pick(chat(model))).complete({ kind: 'success' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('\nllm_d_epp_model_rewrite_decisions_total{model_rewrite_name="canary",model_name="llama",target_model="llama-v2"} 2\n');
    expect(text).toContain('\ninference_extension_model_rewrite_decisions_total{model_rewrite_name="canary",model_name="llama",target_model="llama-v2"} 2\n');
    // No rule for qwen: nothing counted for it.
    expect(text).not.toMatch(/model_rewrite_decisions_total\{[^}]*model_name="qwen"/);
  });

  it('a custom resolver without resolveRule still rewrites, uncounted (it cannot name the rule)', async () => {
    const metrics = new SchedulerMetrics();
    const picker = new EndpointPicker({ pool: pool(), metrics, rewrites: { resolve: (m) => (m === 'a' ? 'b' : undefined) } });
    const d = await picker.pick(chat('a'));
    expect(d.request.targetModel).toBe('b');
    d.complete({ kind: 'success' });
    expect(await metrics.registry.metrics()).not.toMatch(/^llm_d_epp_model_rewrite_decisions_total\{/m);
  });
});
