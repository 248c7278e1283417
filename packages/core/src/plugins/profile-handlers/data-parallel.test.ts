import { describe, expect, it } from 'vitest';
import { DATA_PARALLEL_HEADER, DESTINATION_HEADER, EndpointPicker, EndpointPool, SwitchyardError, createDefaultRegistry, loadConfig, parseRequest } from '@switchyard/core';

const chat = () => parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] }) });
const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';
const config = (params: string, profiles = '- name: default\n  plugins:\n  - pluginRef: queue-scorer\n') =>
  `${HEAD}plugins:\n- type: queue-scorer\n- type: data-parallel-profile-handler\n  parameters: { ${params} }\nschedulingProfiles:\n${profiles}`;

/** Two data-parallel ranks of one pod (ports 8001, 8002). */
function ranks(): EndpointPool {
  const pool = new EndpointPool();
  pool.add({ id: 'pod-rank-0', address: '10.0.0.1:8001' });
  pool.add({ id: 'pod-rank-1', address: '10.0.0.1:8002' });
  return pool;
}

describe('data-parallel-profile-handler', () => {
  it("sends the request to the pod's primary port and names the chosen rank in x-data-parallel-host-port", async () => {
    const pool = ranks();
    const picker = new EndpointPicker({ pool, config: loadConfig(config('primaryPort: 8000'), { registry: createDefaultRegistry(), pool }) });
    const decision = await picker.pick(chat());
    const rank = pool.get(decision.primary.id);
    expect(rank?.port === 8001 || rank?.port === 8002).toBe(true);
    expect(decision.primary.address).toBe('10.0.0.1:8000');
    expect(decision.headers[DESTINATION_HEADER]).toBe('10.0.0.1:8000');
    expect(decision.headers[DATA_PARALLEL_HEADER]).toBe(rank?.address);
    // In-flight load is kept on the rank, not on the stand-in.
    expect(rank?.inFlightRequests).toBe(1);
    decision.complete({ kind: 'success' });
    expect(rank?.inFlightRequests).toBe(0);
  });

  it('defaults primaryPort to 8000 and needs exactly one profile', () => {
    const pool = ranks();
    const plugins = loadConfig(config(''), { registry: createDefaultRegistry(), pool }).effective['plugins'] as { type: string; parameters?: unknown }[];
    expect(plugins.find((p) => p.type === 'data-parallel-profile-handler')?.parameters).toEqual({ primaryPort: 8000 });
    const two = '- name: a\n  plugins:\n  - pluginRef: queue-scorer\n- name: b\n  plugins:\n  - pluginRef: queue-scorer\n';
    expect(() => loadConfig(config('', two), { registry: createDefaultRegistry(), pool })).toThrow(SwitchyardError);
    expect(() => loadConfig(config('', two), { registry: createDefaultRegistry(), pool })).toThrow(/exactly one scheduling profile/);
    expect(() => loadConfig(config('primaryPort: 65536'), { registry: createDefaultRegistry(), pool })).toThrow(/primaryPort/);
  });

  it('with primaryPort 0 (llm-d: allowed) sends the request to the chosen rank itself, without the header', async () => {
    const pool = ranks();
    const picker = new EndpointPicker({ pool, config: loadConfig(config('primaryPort: 0'), { registry: createDefaultRegistry(), pool }) });
    const decision = await picker.pick(chat());
    expect(['10.0.0.1:8001', '10.0.0.1:8002']).toContain(decision.primary.address);
    expect(decision.headers[DESTINATION_HEADER]).toBe(decision.primary.address);
    expect(decision.headers[DATA_PARALLEL_HEADER]).toBeUndefined();
    decision.complete({ kind: 'success' });
  });
});
