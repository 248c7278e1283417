import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../test-support/transports.js';
import type { ConsoleSnapshot, DecisionRecord, EndpointMetrics } from '@switchyard/core';
import { runEppCli, startEpp } from '@switchyard/envoy';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { reqBody, reqHeaders, setHeaders } from '../test-support/wire-helpers.js';

const load = (waiting: number, kv: number): EndpointMetrics => ({
  waitingQueueSize: waiting,
  runningRequestsSize: 0,
  kvCacheUsagePercent: kv,
  activeModels: ['lora-a'],
  waitingModels: [],
  maxActiveModels: 2,
  cacheBlockSize: 16,
  cacheNumBlocks: 100,
  updatedAt: Date.now(),
});

async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const r = await request(url);
  return { status: r.statusCode, body: await r.body.json() };
}

describe.each(TRANSPORTS)('%s transport', (transport) => {
  describe('the EPP console', () => {
    it('is served on the metrics port only when asked, and explain repeats its decision offline', async () => {
      const off = await startEpp({ transport, endpoints: ['10.9.0.1:8000'], host: '127.0.0.1', grpcPort: 0, metricsPort: 0, scrapeIntervalMs: false, log: () => undefined });
      try {
        expect((await request(`http://127.0.0.1:${String(off.metricsServer?.port)}/console`)).statusCode).toBe(404);
      } finally {
        await off.close();
      }

      const configText = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nconsole:\n  enabled: true\n  decisions: 10\n';
      const epp = await startEpp({ transport, endpoints: ['10.9.0.1:8000', '10.9.0.2:8000', '10.9.0.3:8000'], configText, host: '127.0.0.1', grpcPort: 0, metricsPort: 0, scrapeIntervalMs: false, log: () => undefined });
      const dir = await mkdtemp(join(tmpdir(), 'switchyard-epp-explain-'));
      const envoy = new EnvoyEmulator(epp.server.port);
      try {
        const base = `http://127.0.0.1:${String(epp.metricsServer?.port)}`;
        epp.pool.setMetrics('10.9.0.1:8000', load(4, 0.5));
        epp.pool.setMetrics('10.9.0.2:8000', load(1, 0.8));
        epp.pool.setMetrics('10.9.0.3:8000', load(0, 0.3));
        const snapshotText = await (await request(`${base}/console/api/snapshot`)).body.text();
        const body = '{"model":"m","prompt":"why did this go there"}';
        const s = envoy.open();
        s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions', 'x-request-id': 'epp-req-1' }));
        s.send(reqBody(body, true));
        const [head] = await s.waitFor(1);
        const destination = setHeaders(head?.request_headers?.response.header_mutation)['x-gateway-destination-endpoint'];
        s.cancel();
        await s.ended;

        expect((await request(`${base}/console`)).statusCode).toBe(200);
        const snap = (await getJson(`${base}/console/api/snapshot`)) as { status: number; body: ConsoleSnapshot };
        expect(snap.body.server).toBe('switchyard-epp');
        expect(snap.body.pools[0]?.endpoints.find((e) => e.id === '10.9.0.3:8000')).toMatchObject({ waiting: 0, kvCacheUsage: 0.3, activeLoras: ['lora-a'], health: 'healthy' });
        const live = (await getJson(`${base}/console/api/decisions/epp-req-1`)) as { status: number; body: DecisionRecord };
        expect(live.status).toBe(200);
        expect(live.body.endpoint).toBe(destination);
        expect(live.body.trace?.profiles[0]?.picked[0]).toBe(destination);

        const files = { config: join(dir, 'epp.yaml'), body: join(dir, 'body.json'), snapshot: join(dir, 'snapshot.json') };
        await writeFile(files.config, configText);
        await writeFile(files.body, body);
        await writeFile(files.snapshot, snapshotText);
        let out = '';
        const code = await runEppCli(['explain', '--config', files.config, '--request', files.body, '--path', '/v1/completions', '--metrics', files.snapshot, '--json'], { stdout: (t) => (out += t), stderr: () => undefined, signal: new AbortController().signal });
        expect(code).toBe(0);
        const offline = JSON.parse(out) as DecisionRecord;
        expect(offline.endpoint).toBe(live.body.endpoint);
        expect(offline.trace?.profiles[0]?.totals).toEqual(live.body.trace?.profiles[0]?.totals);
      } finally {
        envoy.close();
        await epp.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
