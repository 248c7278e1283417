import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGatewayCli } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { deadAddress, post } from '../test-support/harness.js';

describe('switchyard-gateway with one dead endpoint of two', () => {
  let up: FakeUpstream;
  let dead: string;

  beforeAll(async () => {
    up = await startFakeUpstream('up');
    dead = await deadAddress();
  });
  afterAll(async () => {
    await up.close();
  });

  it('answers every request: a refused connection is retried on the ranked fallback', async () => {
    const err: string[] = [];
    // The dead endpoint is listed first, and the requests come at once, before any scrape or
    // rotation could tell the picker which endpoint is down: only fallbacks can save them.
    const result = await runGatewayCli(['--endpoints', `${dead},${up.address}`, '--port', '0', '--host', '127.0.0.1'], { out: () => undefined, err: (l) => err.push(l) });
    if (result.kind !== 'running') throw new Error(`CLI exited: ${err.join('\n')}`);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => post(`${result.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: `new user ${i}` }] }).then((r) => r.status)),
      );
      expect(statuses).toEqual(Array.from({ length: 8 }, () => 200));
      expect(up.received.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(8);
    } finally {
      await result.gateway.close();
    }
  });
});
