import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGatewayCli } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { post } from '../test-support/harness.js';

describe('switchyard-gateway request log', () => {
  let up: FakeUpstream;
  beforeAll(async () => {
    up = await startFakeUpstream('a');
  });
  afterAll(async () => {
    await up.close();
  });

  it('writes one JSON line per request whose request id is the one the model server and the client saw', async () => {
    const lines: string[] = [];
    const r = await runGatewayCli(['--endpoints', up.address, '--port', '0', '--host', '127.0.0.1', '--log-level', 'debug', '--log-format', 'json', '--console'], {
      out: () => undefined,
      err: () => undefined,
      logSink: { write: (t: string) => lines.push(t) },
    });
    if (r.kind !== 'running') throw new Error('the gateway did not start');
    try {
      const ok = await post(`${r.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      const failed = await post(`${r.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { 'x-test-behavior': 'status-503' });
      expect(ok.status).toBe(200);
      expect(failed.status).toBe(503);
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(entries).toHaveLength(2);
      const [done, bad] = entries;
      expect(done).toMatchObject({ level: 20, name: 'switchyard-gateway', outcome: 'success', endpoint: up.address });
      expect(bad).toMatchObject({ level: 40, outcome: 'error' });
      // The same id at the client, in the log and at the model server.
      expect(done?.requestId).toBe(ok.headers['x-request-id']);
      expect(up.received.map((q) => q.headers['x-request-id'])).toEqual([done?.requestId, bad?.requestId]);
    } finally {
      await r.gateway.close();
    }
  });
});
