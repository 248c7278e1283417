#!/usr/bin/env node
// Screenshots of the operator console for a reviewer: starts a gateway with the console over three
// in-process fake model servers on 127.0.0.1, sends a few requests (some queue behind a saturated
// pool), and saves console.png and console-decision.png. Needs `npm run build` and Chromium
// (Debian's `chromium`, or CHROMIUM_PATH). Usage: node scripts/screenshots.mjs [outDir]
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { findChromium } from '@switchyard/core';
import { createGatewayFromConfig } from '@switchyard/express';

const outDir = process.argv[2] ?? 'out/screenshots';
const executablePath = findChromium();
if (executablePath === undefined) {
  console.error('chromium not found: apt-get install -y chromium, or set CHROMIUM_PATH');
  process.exit(1);
}

/** A model server that answers every completion after `delayMs`. */
async function fakeModelServer(delayMs) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'llama', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } }));
      }, delayMs);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, address: `127.0.0.1:${server.address().port}` };
}

const servers = [await fakeModelServer(20), await fakeModelServer(20), await fakeModelServer(20)];
const gw = await createGatewayFromConfig({
  scrapeMetrics: false,
  console: true,
  config: {
    apiVersion: 'inference.networking.x-k8s.io/v1alpha1',
    kind: 'EndpointPickerConfig',
    featureGates: ['flowControl'],
    gateway: {
      endpoints: servers.map((s, i) => ({ id: `default/llama-${i}-rank-0`, address: s.address, labels: { 'llm-d.ai/role': i === 2 ? 'prefill' : 'decode', app: 'llama' } })),
    },
  },
});
const { url } = await gw.listen(0, '127.0.0.1');
const pool = gw.pools[0].source;
const loads = [
  { waitingQueueSize: 1, runningRequestsSize: 6, kvCacheUsagePercent: 0.42, activeModels: ['sql-lora'] },
  { waitingQueueSize: 4, runningRequestsSize: 9, kvCacheUsagePercent: 0.71, activeModels: [] },
  { waitingQueueSize: 0, runningRequestsSize: 2, kvCacheUsagePercent: 0.18, activeModels: ['sql-lora', 'chat-lora'] },
];
const setLoads = (scale = 1) =>
  loads.forEach((m, i) => pool.setMetrics(`default/llama-${i}-rank-0`, { waitingModels: [], maxActiveModels: 4, cacheBlockSize: 16, cacheNumBlocks: 8000, ...m, waitingQueueSize: m.waitingQueueSize * scale, kvCacheUsagePercent: Math.min(1, m.kvCacheUsagePercent * scale), updatedAt: performance.now() }));

const send = (i, tenant) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': `req-${String(i).padStart(3, '0')}` },
    body: JSON.stringify({ model: 'llama', user: tenant, messages: [{ role: 'system', content: 'You are a helpful assistant for tenant ' + tenant }, { role: 'user', content: `question ${i}` }] }),
  }).then((r) => r.text());

try {
  for (let i = 0; i < 12; i++) {
    setLoads();
    await send(i, i % 3 === 0 ? 'team-a' : 'team-b');
  }
  // Saturate the pool so a few requests wait in flow control while the screenshot is taken.
  setLoads(6);
  const queued = [12, 13, 14].map((i) => send(i, 'team-c').catch(() => undefined));
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1400 } });
  await page.goto(`${url}/console`);
  await page.locator('a.rid').first().waitFor();
  await page.waitForTimeout(1500);
  await mkdir(outDir, { recursive: true });
  await page.screenshot({ path: join(outDir, 'console.png'), fullPage: true });
  await page.locator('a.rid', { hasText: 'req-011' }).click();
  await page.locator('#detail-id').waitFor();
  await page.screenshot({ path: join(outDir, 'console-decision.png'), fullPage: false });
  await browser.close();
  setLoads();
  await Promise.all(queued);
  console.log(`wrote ${join(outDir, 'console.png')} and ${join(outDir, 'console-decision.png')}`);
} finally {
  await gw.close();
  for (const s of servers) s.server.close();
}
