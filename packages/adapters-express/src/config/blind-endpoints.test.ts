import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGatewayCli } from '@switchyard/express';
import { waitFor } from '@switchyard/core/testing';
import { get, post } from '../test-support/harness.js';

const GOOD_METRICS = '# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting 2\n# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 4\n# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc 0.4\n';
type MetricsMode = 'good' | 'garbage' | 'status-500' | 'hang' | 'huge';

/** A model server that answers completions well and `/metrics` as `mode` says. */
interface Upstream {
  readonly address: string;
  metricsServed: number;
  readonly server: Server;
}

async function startUpstream(mode: MetricsMode): Promise<Upstream> {
  const huge = mode === 'huge' ? `# ${'x'.repeat(17 * 1024 * 1024)}\n` : '';
  const up: { metricsServed: number } = { metricsServed: 0 };
  const server = createServer((req, res) => {
    if (req.url === '/metrics') {
      if (mode === 'hang') return; // never answers; closed with the server
      up.metricsServed++;
      if (mode === 'status-500') res.writeHead(500).end('boom');
      else if (mode === 'garbage') res.writeHead(200).end('\u0000\u0001 not { prometheus ]]\n');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(mode === 'huge' ? huge + GOOD_METRICS : GOOD_METRICS);
      return;
    }
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: mode } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(up, { address, server });
}

describe('switchyard-gateway with endpoints whose /metrics is broken', () => {
  const ups: Upstream[] = [];
  beforeAll(async () => {
    for (const mode of ['garbage', 'status-500', 'hang', 'huge', 'good'] as const) ups.push(await startUpstream(mode));
  });
  afterAll(async () => {
    for (const u of ups) {
      u.server.closeAllConnections();
      await new Promise((r) => u.server.close(r));
    }
  });

  it('never treats them as idle: every request goes to the one endpoint with good metrics', async () => {
    const err: string[] = [];
    const result = await runGatewayCli(['--endpoints', ups.map((u) => u.address).join(','), '--port', '0', '--host', '127.0.0.1'], { out: () => undefined, err: (l) => err.push(l) });
    if (result.kind !== 'running') throw new Error(`CLI exited: ${err.join('\n')}`);
    try {
      const good = ups[4] as Upstream;
      // Wait for the good endpoint's first scrape (the broken ones never produce one).
      await waitFor(() => good.metricsServed >= 2, { what: "the good endpoint's first scrapes" });
      const answers: string[] = [];
      for (let i = 0; i < 60; i++) {
        const r = await post(`${result.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: `user ${i}` }] });
        expect(r.status).toBe(200);
        answers.push((r.json() as { choices: { message: { content: string } }[] }).choices[0]?.message.content ?? '');
      }
      expect(new Set(answers)).toEqual(new Set(['good']));
      expect((await get(`${result.url}/metrics`)).text).toMatch(/llm_d_epp_flow_control_stale_endpoints\{detector="[^"]+"\} 4/);
    } finally {
      await result.gateway.close();
    }
  });
});
