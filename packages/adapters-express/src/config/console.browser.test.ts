import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EndpointMetrics } from '@switchyard/core';
import { findChromium } from '@switchyard/core/internal';
import { createGatewayFromConfig, type Gateway } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { post } from '../test-support/harness.js';

const chat = { model: 'm1', messages: [{ role: 'user', content: 'hello there' }] };
const load = (waiting: number, kv: number): EndpointMetrics => ({
  waitingQueueSize: waiting,
  runningRequestsSize: 1,
  kvCacheUsagePercent: kv,
  activeModels: [],
  waitingModels: [],
  maxActiveModels: 0,
  cacheBlockSize: 16,
  cacheNumBlocks: 1000,
  updatedAt: Date.now(),
});

// A real headless Chromium (Debian's `chromium`, installed by .ci/run): a missing browser fails
// here, loudly, instead of skipping.
describe('the console in a browser', () => {
  let a: FakeUpstream;
  let b: FakeUpstream;
  let gw: Gateway;
  let url: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  /** What beforeAll started, closed in reverse order (whatever point it reached). */
  const closers: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    const executablePath = findChromium();
    if (executablePath === undefined) throw new Error('chromium is not installed (apt-get install -y chromium, or set CHROMIUM_PATH)');
    a = await startFakeUpstream('a');
    closers.push(() => a.close());
    b = await startFakeUpstream('b');
    closers.push(() => b.close());
    gw = await createGatewayFromConfig({
      scrapeMetrics: false,
      console: true,
      config: {
        apiVersion: 'inference.networking.x-k8s.io/v1alpha1',
        kind: 'EndpointPickerConfig',
        featureGates: ['flowControl'],
        gateway: { endpoints: [{ id: 'pod-a-rank-0', address: a.address, labels: { 'llm-d.ai/role': 'decode' } }, { id: 'pod-b-rank-0', address: b.address }] },
      },
    });
    closers.push(() => gw.close());
    ({ url } = await gw.listen(0, '127.0.0.1'));
    gw.pools[0]?.source.setMetrics('pod-a-rank-0', load(1, 0.2));
    gw.pools[0]?.source.setMetrics('pod-b-rank-0', load(2, 0.5));
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    closers.push(() => browser.close());
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  }, 60_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('shows the live pool and follows metric changes', async () => {
    await page.goto(`${url}/console`);
    const podA = page.locator('#pools tr', { hasText: 'pod-a-rank-0' });
    await podA.waitFor();
    expect(await podA.innerText()).toContain('decode');
    expect(await page.locator('#pools').innerText()).toContain('2 of 2 healthy');
    gw.pools[0]?.source.setMetrics('pod-a-rank-0', load(17, 0.9));
    await expect.poll(() => page.locator('#pools').innerText(), { timeout: 10_000 }).toContain('90%');
    expect(await podA.innerText()).toContain('17');
    expect(await page.locator('#flow').innerText()).toContain('Jain index');
    expect(await page.locator('#prefix').innerText()).toContain('approximate');
  });

  it('lists decisions and opens a trace from its request id', async () => {
    for (let i = 0; i < 3; i++) {
      // Fresh metrics: flow control treats metrics older than 200 ms as a saturated pool and queues.
      gw.pools[0]?.source.setMetrics('pod-a-rank-0', load(1, 0.2));
      gw.pools[0]?.source.setMetrics('pod-b-rank-0', load(2, 0.5));
      expect((await post(`${url}/v1/chat/completions`, chat, { 'x-request-id': `browser-req-${i}` })).status).toBe(200);
    }
    const link = page.locator('a.rid', { hasText: 'browser-req-2' });
    await link.waitFor({ timeout: 10_000 });
    await link.click();
    await page.locator('#detail-id', { hasText: 'browser-req-2' }).waitFor();
    const detail = await page.locator('#detail').innerText();
    expect(detail).toContain('Profile default');
    expect(detail).toContain('prefix-cache-scorer');
    expect(detail).toMatch(/picked/);
    expect(problems).toEqual([]);
  });
});
