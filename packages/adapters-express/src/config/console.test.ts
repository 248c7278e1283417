import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleSnapshot, DecisionRecord } from '@switchyard/core';
import { createGatewayFromConfig, type Gateway } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post } from '../test-support/harness.js';

const chat = { model: 'm1', messages: [{ role: 'user', content: 'hello there' }] };

describe('the gateway console', () => {
  let a: FakeUpstream;
  let b: FakeUpstream;
  const open: Gateway[] = [];
  const start = async (options: Parameters<typeof createGatewayFromConfig>[0]): Promise<{ gw: Gateway; url: string }> => {
    const gw = await createGatewayFromConfig({ scrapeMetrics: false, ...options });
    open.push(gw);
    const { url } = await gw.listen(0, '127.0.0.1');
    return { gw, url };
  };
  beforeAll(async () => {
    a = await startFakeUpstream('a');
    b = await startFakeUpstream('b');
  });
  afterAll(async () => {
    for (const g of open) await g.close();
    await a.close();
    await b.close();
  });

  it('is off by default', async () => {
    const { url, gw } = await start({ endpoints: [a.address] });
    expect(gw.console).toBeUndefined();
    expect((await get(`${url}/console`)).status).toBe(404);
  });

  it('serves the page, the pool, flow control and each decision with its trace', async () => {
    const config = {
      apiVersion: 'inference.networking.x-k8s.io/v1alpha1',
      kind: 'EndpointPickerConfig',
      featureGates: ['flowControl'],
      gateway: { endpoints: [{ id: 'pod-a-rank-0', address: a.address, labels: { 'llm-d.ai/role': 'decode' } }, b.address], console: { enabled: true, decisions: 50 } },
    };
    const { url, gw } = await start({ config });
    const page = await get(`${url}/console`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('Switchyard console');
    expect(page.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);

    const source = gw.pools[0]?.source;
    source?.setMetrics('pod-a-rank-0', { waitingQueueSize: 3, runningRequestsSize: 2, kvCacheUsagePercent: 0.4, activeModels: ['lora-x'], waitingModels: [], maxActiveModels: 4, cacheBlockSize: 16, cacheNumBlocks: 100, updatedAt: Date.now() });
    const answered = await post(`${url}/v1/chat/completions`, chat, { 'x-request-id': 'console-req-1' });
    expect(answered.status).toBe(200);

    const snap = JSON.parse((await get(`${url}/console/api/snapshot`)).text) as ConsoleSnapshot;
    expect(snap.server).toBe('switchyard-gateway');
    const eps = snap.pools[0]?.endpoints ?? [];
    expect(eps.map((e) => e.id).sort()).toEqual(['pod-a-rank-0', b.address].sort());
    const podA = eps.find((e) => e.id === 'pod-a-rank-0');
    expect(podA).toMatchObject({ role: 'decode', rank: 0, waiting: 3, running: 2, kvCacheUsage: 0.4, activeLoras: ['lora-x'], health: 'healthy' });
    expect(eps.find((e) => e.id === b.address)?.health).toBe('no-metrics');
    expect(snap.flowControl[0]?.bands.length).toBeGreaterThan(0);
    expect(snap.flowControl[0]?.dispatchRate).toBeGreaterThanOrEqual(0);
    expect(snap.prefixIndexes[0]).toMatchObject({ kind: 'approximate' });
    expect(snap.prefixIndexes[0]?.entries).toBeGreaterThan(0);
    const summary = snap.decisions.find((d) => d.requestId === 'console-req-1');
    expect(summary).toMatchObject({ outcome: 'success', pool: 'default', model: 'm1' });

    const detail = await get(`${url}/console/api/decisions/console-req-1`);
    expect(detail.status).toBe(200);
    const record = JSON.parse(detail.text) as DecisionRecord;
    expect(record.endpoint).toBe(summary?.endpoint);
    const profile = record.trace?.profiles[0];
    expect(profile?.picked[0]).toBe(record.endpoint);
    expect(profile?.scorers.map((s) => s.name)).toContain('prefix-cache-scorer');
    expect((await get(`${url}/console/api/decisions/unknown-id`)).status).toBe(404);
    expect((await get(`${url}/console/api/nothing`)).status).toBe(404);
  });

  it('records rejected requests once each', async () => {
    const { url } = await start({ endpoints: [a.address], console: true });
    const r = await post(`${url}/v1/chat/completions`, chat, { 'x-request-id': 'console-req-2', 'x-test-behavior': 'status-503' });
    expect(r.status).toBe(503);
    const list = JSON.parse((await get(`${url}/console/api/decisions`)).text) as { decisions: { requestId: string; outcome: string; error?: string }[] };
    const mine = list.decisions.filter((d) => d.requestId === 'console-req-2');
    expect(mine).toHaveLength(1);
    expect(mine[0]?.outcome).toBe('error');
  });
});
