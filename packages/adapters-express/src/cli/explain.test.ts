import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionRecord, EndpointMetrics } from '@switchyard/core';
import { createGatewayFromConfig, runGatewayCli, type Gateway } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post } from '../test-support/harness.js';

const load = (waiting: number, kv: number, running = 1): EndpointMetrics => ({
  waitingQueueSize: waiting,
  runningRequestsSize: running,
  kvCacheUsagePercent: kv,
  activeModels: [],
  waitingModels: [],
  maxActiveModels: 0,
  cacheBlockSize: 16,
  cacheNumBlocks: 1000,
  updatedAt: Date.now(),
});

/** Pool states and requests: each is decided live, recorded from the console, then explained offline. */
const fixtures = [
  { name: 'least loaded wins', loads: [load(6, 0.7), load(0, 0.1), load(3, 0.4)], prompt: 'first fixture prompt' },
  { name: 'kv cache decides between equal queues', loads: [load(2, 0.9), load(2, 0.2), load(2, 0.6)], prompt: 'second fixture, unrelated words' },
  { name: 'a different endpoint is free', loads: [load(0, 0.05), load(9, 0.95), load(4, 0.5)], prompt: 'third one: nothing shared with the others' },
];

describe('switchyard-gateway explain', () => {
  const ups: FakeUpstream[] = [];
  let dir: string;
  const open: Gateway[] = [];
  const urls: string[] = [];
  beforeAll(async () => {
    for (const n of ['a', 'b', 'c']) ups.push(await startFakeUpstream(n));
    dir = await mkdtemp(join(tmpdir(), 'switchyard-explain-'));
  });
  afterAll(async () => {
    for (const g of open) await g.close();
    for (const u of ups) await u.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (argv: string[]): Promise<{ code: number; out: string; err: string }> => {
    const out: string[] = [];
    const err: string[] = [];
    const r = await runGatewayCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code: r.kind === 'exit' ? r.code : -1, out: out.join('\n'), err: err.join('\n') };
  };

  it.each(fixtures)('gives the live picker\'s decision: $name', async ({ loads, prompt, name }) => {
    const config = {
      apiVersion: 'inference.networking.x-k8s.io/v1alpha1',
      kind: 'EndpointPickerConfig',
      gateway: { endpoints: ups.map((u, i) => ({ id: `pod-${String(i)}`, address: u.address })), console: { enabled: true } },
    };
    const configFile = join(dir, `config-${name.length}.json`);
    await writeFile(configFile, JSON.stringify(config));
    const gw = await createGatewayFromConfig({ config, configPath: configFile, scrapeMetrics: false });
    open.push(gw);
    const { url } = await gw.listen(0, '127.0.0.1');
    urls.push(url);
    loads.forEach((m, i) => gw.pools[0]?.source.setMetrics(`pod-${String(i)}`, m));
    const body = { model: 'm1', messages: [{ role: 'user', content: prompt }] };
    // The console snapshot from before the request is the pool state the picker decided on.
    const snapshotText = (await get(`${url}/console/api/snapshot`)).text;
    expect((await post(`${url}/v1/chat/completions`, body, { 'x-request-id': 'live-1' })).status).toBe(200);
    const live = JSON.parse((await get(`${url}/console/api/decisions/live-1`)).text) as DecisionRecord;
    const snapshotFile = join(dir, `snapshot-${name.length}.json`);
    const bodyFile = join(dir, `body-${name.length}.json`);
    await writeFile(snapshotFile, snapshotText);
    await writeFile(bodyFile, JSON.stringify(body));

    const fromFile = await run(['explain', '--config', configFile, '--request', bodyFile, '--metrics', snapshotFile, '--json']);
    expect(fromFile.err).toBe('');
    expect(fromFile.code).toBe(0);
    const offline = JSON.parse(fromFile.out) as DecisionRecord;
    expect(offline.endpoint).toBe(live.endpoint);
    expect(offline.fallbacks).toEqual(live.fallbacks);
    expect(offline.trace?.profiles.map((p) => p.totals)).toEqual(live.trace?.profiles.map((p) => p.totals));

    const text = await run(['explain', '--config', configFile, '--request', bodyFile, '--metrics', snapshotFile]);
    expect(text.out).toContain(`decision: ${live.endpoint ?? ''}`);
    expect(text.out).toMatch(/queue-scorer x\d/);
    expect(text.out).toContain('<- picked');
  });

  it('reads a live console\'s snapshot by URL', async () => {
    const url = urls[0] ?? '';
    const bodyFile = join(dir, 'body-url.json');
    await writeFile(bodyFile, JSON.stringify({ model: 'm1', prompt: 'x' }));
    const configFile = join(dir, 'config-url.json');
    await writeFile(configFile, JSON.stringify({ apiVersion: 'inference.networking.x-k8s.io/v1alpha1', kind: 'EndpointPickerConfig', gateway: { endpoints: ups.map((u, i) => ({ id: `pod-${String(i)}`, address: u.address })) } }));
    const r = await run(['explain', '--config', configFile, '--request', bodyFile, '--path', '/v1/completions', '--metrics', `${url}/console/api/snapshot`]);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/decision: pod-\d/);
  });

  it('names the bad flag or field', async () => {
    expect((await run(['explain', '--config', 'x.json'])).err).toMatch(/--request/);
    const bad = join(dir, 'bad-snapshot.json');
    await writeFile(bad, JSON.stringify({ now: 1, pools: [{ name: 'p', endpoints: [{ id: 'a', waiting: -1 }] }] }));
    const body = join(dir, 'b.json');
    await writeFile(body, '{"model":"m","prompt":"p"}');
    const r = await run(['explain', '--endpoints', '127.0.0.1:1', '--request', body, '--metrics', bad]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('pools[0].endpoints[0].waiting');
  });
});
