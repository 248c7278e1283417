import { describe, expect, it } from 'vitest';
import { EndpointPicker, EndpointPool, ManualClock, createDefaultRegistry, loadConfig, parseRequest } from '@switchyard/core';

const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';
const config = (params: string) =>
  `${HEAD}plugins:\n- type: session-id-producer\n  parameters: { ${params} }\n- type: session-affinity-filter\n  parameters: { strategy: session_id }\n- type: random-picker\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: session-affinity-filter\n  - pluginRef: random-picker\n`;

function picker(params: string): EndpointPicker {
  const pool = new EndpointPool();
  for (let i = 1; i <= 8; i++) pool.add({ address: `10.0.0.${i}:8000` });
  return new EndpointPicker({ pool, clock: new ManualClock(), config: loadConfig(config(params), { registry: createDefaultRegistry(), pool }) });
}

const request = (headers: Record<string, string>) =>
  parseRequest({ path: '/v1/chat/completions', headers, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });

/** The endpoints 20 requests with `headers` went to, after a first one pinned the session. */
async function followUps(p: EndpointPicker, headers: Record<string, string>): Promise<Set<string>> {
  const first = await p.pick(request(headers));
  first.complete({ kind: 'success' });
  const seen = new Set<string>([first.primary.address]);
  for (let i = 0; i < 20; i++) {
    const d = await p.pick(request(headers));
    seen.add(d.primary.address);
    d.complete({ kind: 'success' });
  }
  return seen;
}

describe('session-id-producer (llm-d parameters)', () => {
  it('keys sessions by the header named in headerName (trimmed, any case)', async () => {
    const p = picker('headerName: " X-Conversation "');
    expect((await followUps(p, { 'x-conversation': 'c1' })).size).toBe(1);
    // The default header is not read any more.
    expect((await followUps(p, { 'x-session-id': 's1' })).size).toBeGreaterThan(1);
  });

  it('keys sessions by the cookie named in cookieName', async () => {
    const p = picker('cookieName: sid');
    expect((await followUps(p, { cookie: 'theme=dark; sid=abc; x=1' })).size).toBe(1);
    expect((await followUps(p, { cookie: 'theme=dark' })).size).toBeGreaterThan(1);
  });

  it('rejects both at once, naming the field', () => {
    expect(() => picker('headerName: a, cookieName: b')).toThrow(/cookieName: set headerName or cookieName, not both/);
  });
});

describe('session affinity with encodedEndpointHeaderConfig', () => {
  it('reads and writes the session token in the configured header', async () => {
    const pool = new EndpointPool();
    for (let i = 1; i <= 8; i++) pool.add({ address: `10.0.0.${i}:8000` });
    const text = `${HEAD}plugins:\n- type: session-affinity-scorer\n  parameters:\n    encodedEndpointHeaderConfig: { header: X-Pin }\n    profileName: ""\n- type: random-picker\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: session-affinity-scorer\n  - pluginRef: random-picker\n`;
    const max = text.replace('random-picker', 'max-score-picker').replace('pluginRef: random-picker', 'pluginRef: max-score-picker');
    const p = new EndpointPicker({ pool, clock: new ManualClock(), config: loadConfig(max, { registry: createDefaultRegistry(), pool }) });
    const first = await p.pick(request({}));
    first.complete({ kind: 'success' });
    const token = first.responseHeaders['x-pin'];
    expect(token).toBe(Buffer.from(first.primary.id).toString('base64'));
    expect(first.responseHeaders['x-session-token']).toBeUndefined();
    for (let i = 0; i < 10; i++) {
      const d = await p.pick(request({ 'x-pin': token as string }));
      expect(d.primary.address).toBe(first.primary.address);
      d.complete({ kind: 'success' });
    }
  });
});
