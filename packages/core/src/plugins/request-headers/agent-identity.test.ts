import { describe, expect, it } from 'vitest';
import { EndpointPicker, agentIdentityAttribute, agentIdentityPlugin, createDefaultRegistry, loadConfig, type RequestHeaderProcessor } from '@switchyard/core';
import { inferenceRequest, instantiate, poolOf } from '@switchyard/core/testing';

const identity = (params: object, headers: Record<string, string>): string | undefined =>
  (instantiate(agentIdentityPlugin, params) as RequestHeaderProcessor).identityOf(inferenceRequest({ headers }));

describe('agent-identity', () => {
  it('takes the first non-empty of the additional headers, then the built-in list in order', () => {
    expect(identity({}, { 'session_id': 's4', 'session-id': 's3', 'x-session-affinity': 's2', 'x-claude-code-session-id': 's1' })).toBe('s1');
    expect(identity({}, { 'session_id': 's4', 'session-id': 's3' })).toBe('s3');
    expect(identity({}, { 'session_id': 's4', 'x-session-affinity': '' })).toBe('s4');
    expect(identity({ additionalSessionHeaders: ['X-Session-Id'] }, { 'x-session-id': 'mine', 'session-id': 'theirs' })).toBe('mine');
    expect(identity({}, { 'x-session-id': 'unlisted' })).toBeUndefined();
  });

  it('becomes the fairness id when the request names none, and the agent-identity attribute', async () => {
    const pool = poolOf(1);
    const config = loadConfig('apiVersion: llm-d.ai/v1\nkind: EndpointPickerConfig\nplugins:\n- type: agent-identity\n- type: queue-scorer\n', { registry: createDefaultRegistry(), pool });
    const picker = new EndpointPicker({ pool, config });
    try {
      const a = await picker.pick(inferenceRequest({ headers: { 'x-claude-code-session-id': 'agent-7' } }));
      expect(a.request.fairnessId).toBe('agent-7');
      expect(a.request.attributes.get(agentIdentityAttribute)).toBe('agent-7');
      a.complete({ kind: 'success' });
      const b = await picker.pick(inferenceRequest({ headers: { 'x-claude-code-session-id': 'agent-7', 'x-llm-d-inference-fairness-id': 'tenant' } }));
      expect(b.request.fairnessId).toBe('tenant');
      b.complete({ kind: 'success' });
      const c = await picker.pick(inferenceRequest());
      expect(c.request.fairnessId).toBe('default-flow');
      c.complete({ kind: 'success' });
    } finally {
      await picker.close();
    }
  });
});
