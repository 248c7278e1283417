/*
 * llm-d's non-Kubernetes mode through both CLIs: a config whose `dataLayer.discovery` names a
 * `file-discovery` plugin (every llm-d parameter set) starts `switchyard-epp` and
 * `switchyard-gateway` without `--endpoints`, routes to the endpoints the file lists, and follows
 * the file when it changes (`watchFile: true`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEppCli } from '@switchyard/envoy';
import { waitFor } from '@switchyard/core/testing';
import { runGatewayCli } from '@switchyard/express';
import { eppAnswer, startEppCli } from './support/both-clis.js';

/** A model server answering chat completions with its own name. */
async function modelServer(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/metrics') res.writeHead(200, { 'content-type': 'text/plain' }).end('vllm:num_requests_waiting 0\nvllm:num_requests_running 0\nvllm:kv_cache_usage_perc 0\n');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: name }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const endpointsFile = (name: string, port: number): string => `endpoints:\n- name: ${name}\n  namespace: inference\n  address: 127.0.0.1\n  port: "${port}"\n  labels:\n    llm-d.ai/role: decode\n`;

const config = (path: string): string => `apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: file-discovery
  name: endpoints-from-file
  parameters:
    path: ${JSON.stringify(path)}
    watchFile: true
- type: queue-scorer
dataLayer:
  discovery:
    pluginRef: endpoints-from-file
`;

const CHAT = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: 4 });

let dir: string;
let a: { server: Server; port: number };
let b: { server: Server; port: number };
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sy-file-discovery-'));
  a = await modelServer('a');
  b = await modelServer('b');
});
afterAll(async () => {
  for (const s of [a, b]) await new Promise((resolve) => s.server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('file-discovery through both CLIs', () => {
  it('switchyard-epp routes to the file\'s endpoint and follows an edit', async () => {
    const file = join(dir, 'epp-endpoints.yaml');
    writeFileSync(file, endpointsFile('a', a.port));
    writeFileSync(join(dir, 'epp.yaml'), config(file));
    const { epp, envoy, close } = await startEppCli(['--config', join(dir, 'epp.yaml')]);
    const destination = async (): Promise<string | undefined> => (await eppAnswer(envoy, { path: '/v1/chat/completions', body: CHAT })).destination;
    try {
      expect(epp.pool.list().map((e) => e.id)).toEqual(['inference/a']);
      expect(await destination()).toBe(`127.0.0.1:${a.port}`);
      writeFileSync(file, endpointsFile('b', b.port));
      await waitFor(() => epp.pool.get('inference/b') !== undefined && epp.pool.get('inference/a') === undefined, { what: 'the edited file applied' });
      expect(await destination()).toBe(`127.0.0.1:${b.port}`);
    } finally {
      await close();
    }
  });

  it('switchyard-gateway routes to the file\'s endpoint and follows an edit', async () => {
    const file = join(dir, 'gateway-endpoints.yaml');
    writeFileSync(file, endpointsFile('a', a.port));
    writeFileSync(join(dir, 'gateway.yaml'), config(file));
    const r = await runGatewayCli(['--config', join(dir, 'gateway.yaml'), '--host', '127.0.0.1', '--port', '0', '--log-level', 'silent'], { out: () => undefined, err: () => undefined });
    if (r.kind !== 'running') throw new Error(`switchyard-gateway exited with ${r.code}`);
    const answer = async (): Promise<string> => {
      const res = await fetch(`${r.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAT });
      const body = (await res.json()) as { choices: { message: { content: string } }[] };
      return body.choices[0]?.message.content ?? '';
    };
    try {
      expect(await answer()).toBe('a');
      writeFileSync(file, endpointsFile('b', b.port));
      const pool = r.gateway.pools[0];
      await waitFor(() => pool?.source.list().map((e) => e.id).join() === 'inference/b', { what: 'the edited file applied' });
      expect(await answer()).toBe('b');
    } finally {
      await r.gateway.close();
    }
  });

  it('both refuse to start when the file is invalid, naming the field', async () => {
    const file = join(dir, 'bad-endpoints.yaml');
    writeFileSync(file, 'endpoints:\n- name: a\n  address: 127.0.0.1\n  port: "0"\n');
    writeFileSync(join(dir, 'bad.yaml'), config(file));
    await expect(runEppCli(['--config', join(dir, 'bad.yaml'), '--grpc-port', '0', '--metrics-port', '0'], { stdout: () => undefined, stderr: () => undefined, signal: AbortSignal.abort() })).rejects.toThrow(/endpoints\[0\]\.port/);
    const lines: string[] = [];
    const r = await runGatewayCli(['--config', join(dir, 'bad.yaml'), '--port', '0'], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(r.kind).toBe('exit');
    expect(lines.join('\n')).toMatch(/endpoints\[0\]\.port/);
  });
});
