/*
 * `switchyard-gateway --config FILE --resources FILE` end to end: InferenceObjectives from the
 * resources file become priority bands of the pool's flow control, so a premium request sent
 * behind a queued sheddable flood reaches the model server first. The model server here holds
 * every completion until the test releases it, so the order it receives them in is the order the
 * gateway dispatched them, and nothing depends on timing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '@switchyard/core/testing';
import { runGatewayCli, type GatewayCliResult } from './run.js';
import { post } from '../test-support/harness.js';
import { CHAT_COMPLETION_REPLY, startModelServerStub, type ModelServerStub } from '../test-support/model-server-stub.js';

/** Completions received, in arrival order (by prompt), each answered when released. */
const arrived: string[] = [];
const held: ServerResponse[] = [];
let upstream: ModelServerStub;
let address: string;

function releaseOne(): void {
  const res = held.shift();
  if (res === undefined) throw new Error('nothing held');
  res.writeHead(200, { 'content-type': 'application/json' }).end(CHAT_COMPLETION_REPLY);
}

beforeAll(async () => {
  upstream = await startModelServerStub({
    models: [{ id: 'm', object: 'model', owned_by: 'vllm' }],
    inference: (_req, res, body) => {
      const parsed = JSON.parse(body) as { messages: { content: string }[] };
      arrived.push(parsed.messages[0]?.content ?? '?');
      held.push(res);
    },
  });
  address = upstream.address;
});

afterAll(async () => {
  while (held.length > 0) releaseOne();
  await upstream.close();
});

const CONFIG = (endpoint: string): string => `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
featureGates: [flowControl]
plugins:
- type: concurrency-detector
  parameters: { maxConcurrency: 1 }
- type: queue-scorer
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins: [{ pluginRef: queue-scorer }, { pluginRef: max-score-picker }]
flowControl:
  saturationDetector: { pluginRef: concurrency-detector }
gateway:
  endpoints: ["${endpoint}"]
  trust: { trustedClients: ["127.0.0.1"] }
`;

const RESOURCES = `apiVersion: inference.networking.x-k8s.io/v1alpha2
kind: InferenceObjective
metadata: { name: premium }
spec: { priority: 100, poolRef: { name: default } }
---
apiVersion: inference.networking.x-k8s.io/v1alpha2
kind: InferenceObjective
metadata: { name: flood }
spec: { priority: -10, poolRef: { name: default } }
`;

const chat = (prompt: string) => ({ model: 'm', messages: [{ role: 'user', content: prompt }], max_tokens: 4 });

it('dispatches a premium objective ahead of a queued sheddable flood', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sy-objectives-'));
  writeFileSync(join(dir, 'config.yaml'), CONFIG(address));
  writeFileSync(join(dir, 'resources.yaml'), RESOURCES);
  const lines: string[] = [];
  const result: GatewayCliResult = await runGatewayCli(['--config', join(dir, 'config.yaml'), '--resources', join(dir, 'resources.yaml'), '--host', '127.0.0.1', '--port', '0', '--log-level', 'silent'], {
    out: (l) => lines.push(l),
    err: (l) => lines.push(l),
    logSink: { write: () => undefined },
  });
  if (result.kind !== 'running') throw new Error(`gateway did not start: ${lines.join('\n')}`);
  const { gateway, url } = result;
  try {
    const pool = gateway.pools[0]!;
    expect(pool.objectives.priorityOf('premium')).toBe(100);
    expect(pool.objectives.priorityOf('flood')).toBe(-10);
    const fc = pool.flowController!;
    const send = (prompt: string, objective: string) => post(`${url}/v1/chat/completions`, chat(prompt), { 'x-gateway-inference-objective': objective });

    // One request occupies the only slot (maxConcurrency 1) ...
    const first = send('first', 'flood');
    await waitFor(() => arrived.length === 1);
    // ... a sheddable flood queues behind it ...
    const flood = Array.from({ length: 5 }, (_, i) => send(`flood-${i}`, 'flood'));
    await waitFor(() => fc.stats().queuedRequests === 5);
    // ... and a premium request arrives last.
    const premium = send('premium', 'premium');
    await waitFor(() => fc.stats().queuedRequests === 6);
    releaseOne();
    await waitFor(() => arrived.length === 2);
    expect(arrived[1]).toBe('premium');
    // Drain: each release frees the only slot, and exactly one queued request takes it.
    while (arrived.length < 7) {
      const n = arrived.length;
      releaseOne();
      await waitFor(() => arrived.length > n);
    }
    releaseOne();
    const statuses = (await Promise.all([first, ...flood, premium])).map((r) => r.status);
    // Every request ends with exactly one outcome; none is lost or shed while the pool drains.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(arrived.slice(2).sort()).toEqual(['flood-0', 'flood-1', 'flood-2', 'flood-3', 'flood-4']);
  } finally {
    // A failed assertion must not leave requests held: the gateway drains them on close.
    while (held.length > 0) releaseOne();
    await gateway.close();
  }
});

it('names the resources file when a manifest in it is invalid', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sy-objectives-'));
  writeFileSync(join(dir, 'bad.yaml'), 'apiVersion: inference.networking.x-k8s.io/v1alpha2\nkind: InferenceObjective\nmetadata: { name: premium }\nspec: { priority: "high" }\n');
  const lines: string[] = [];
  const result = await runGatewayCli(['--endpoints', address, '--resources', join(dir, 'bad.yaml'), '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent'], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  expect(result).toEqual({ kind: 'exit', code: 2 });
  expect(lines.join('\n')).toMatch(/--resources .*bad\.yaml: .*priority/);
  const missing = await runGatewayCli(['--endpoints', address, '--resources', join(dir, 'nope.yaml')], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  expect(missing).toEqual({ kind: 'exit', code: 2 });
  expect(lines.at(-1)).toMatch(/cannot read --resources .*nope\.yaml/);
});
