import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pool } from 'undici';
import fc from 'fast-check';
import { EndpointPicker, EndpointPool } from '@switchyard/core';
import type { Decision, InferenceRequest, PickOptions, RequestScheduler } from '@switchyard/core';
import { waitFor } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, startGateway, type RunningGateway } from '../test-support/harness.js';

/** Wraps a scheduler and counts lifecycle completions per decision. */
class CountingScheduler implements RequestScheduler {
  readonly completions: number[] = [];
  constructor(readonly inner: RequestScheduler) {}
  async pick(request: InferenceRequest, options?: PickOptions): Promise<Decision> {
    const d = await this.inner.pick(request, options);
    const i = this.completions.push(0) - 1;
    // Delegate member by member: the real decision keeps private state behind its methods.
    return {
      request: d.request,
      primary: d.primary,
      fallbacks: d.fallbacks,
      result: d.result,
      headers: d.headers,
      responseHeaders: d.responseHeaders,
      body: d.body,
      clientModel: d.clientModel,
      trace: d.trace,
      revoked: d.revoked,
      onResponseStart: (info) => {
        d.onResponseStart(info);
      },
      onUsage: (usage) => {
        d.onUsage(usage);
      },
      complete: (outcome) => {
        this.completions[i] = (this.completions[i] ?? 0) + 1;
        d.complete(outcome);
      },
    };
  }
}

type Kind = 'json' | 'stream' | 'cancel-stream' | 'cancel-early' | 'malformed' | 'no-model';
const KINDS: readonly Kind[] = ['json', 'json', 'json', 'stream', 'stream', 'cancel-stream', 'cancel-early', 'malformed', 'no-model'];

function bodyFor(kind: Kind, i: number): string {
  if (kind === 'malformed') return `{"model":"m","messages":[{"role":"user","content":"x${i}"`;
  if (kind === 'no-model') return JSON.stringify({ messages: [{ role: 'user', content: 'x' }] });
  const stream = kind !== 'json';
  return JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: `conversation ${i % 50} turn ${i}` }] });
}

describe('20k requests with random cancels', () => {
  let up: FakeUpstream[];
  let gw: RunningGateway;
  let pool: EndpointPool;
  let scheduler: CountingScheduler;

  beforeAll(async () => {
    up = [await startFakeUpstream('a'), await startFakeUpstream('b')];
    pool = new EndpointPool();
    for (const u of up) pool.add({ address: u.address });
    scheduler = new CountingScheduler(new EndpointPicker({ pool }));
    gw = await startGateway({ scheduler, endpoints: pool });
  });
  afterAll(async () => {
    await gw.close();
    for (const u of up) await u.close();
  });

  it('gives every request exactly one well-formed outcome and leaks nothing', async () => {
    const N = 20_000;
    const kinds = fc.sample(fc.constantFrom(...KINDS), { numRuns: N, seed: 42 });
    const client = new Pool(gw.url, { connections: 64, pipelining: 1 });
    const outcomes: Record<string, number> = {};
    const count = (k: string): void => {
      outcomes[k] = (outcomes[k] ?? 0) + 1;
    };
    const problems: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < N; i = next++) {
        const kind = kinds[i] ?? 'json';
        const ac = new AbortController();
        if (kind === 'cancel-early') setTimeout(() => { ac.abort(); }, i % 3);
        let r;
        try {
          r = await client.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyFor(kind, i), signal: ac.signal });
        } catch (err) {
          // Only our own cancels may fail a request.
          if (kind === 'cancel-early' && (err as Error).name === 'AbortError') count('cancelled');
          else problems.push(`${i} ${kind}: ${String(err)}`);
          continue;
        }
        if (kind === 'cancel-stream') {
          try {
            for await (const _ of r.body) {
              ac.abort();
              break;
            }
          } catch {
            // the abort itself may surface here
          }
          count('cancelled-stream');
          continue;
        }
        let text: string;
        try {
          text = await r.body.text();
        } catch (err) {
          if (kind === 'cancel-early' && (err as Error).name === 'AbortError') count('cancelled');
          else problems.push(`${i} ${kind}: body ${String(err)}`);
          continue;
        }
        const ok =
          kind === 'malformed' || kind === 'no-model'
            ? r.statusCode === 400 && (JSON.parse(text) as { error?: { type?: string } }).error?.type === 'invalid_request_error'
            : kind === 'json' || kind === 'cancel-early'
              ? r.statusCode === 200 && (JSON.parse(text) as { object?: string }).object === 'chat.completion'
              : r.statusCode === 200 && text.endsWith('data: [DONE]\n\n');
        if (ok) count(kind === 'cancel-early' ? 'completed-before-cancel' : kind);
        else problems.push(`${i} ${kind}: ${r.statusCode} ${text.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    await client.close();

    expect(problems.slice(0, 5)).toEqual([]);
    expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(N);
    expect((outcomes.cancelled ?? 0) + (outcomes['cancelled-stream'] ?? 0)).toBeGreaterThan(N * 0.1);
    // Lifecycles: every decision completed exactly once (cancels take a moment to propagate).
    await waitFor(() => !scheduler.completions.some((c) => c === 0) && !up.some((u) => u.open > 0), { timeoutMs: 2000 }).catch(() => undefined); // the assertion below says what is left
    expect(scheduler.completions.filter((c) => c !== 1)).toEqual([]);
    // Every request that got a completion or a stream was scheduled (early cancels may or may not be).
    const scheduled = (outcomes.json ?? 0) + (outcomes.stream ?? 0) + (outcomes['cancelled-stream'] ?? 0) + (outcomes['completed-before-cancel'] ?? 0);
    expect(scheduler.completions.length).toBeGreaterThanOrEqual(scheduled);
    expect(scheduler.completions.length).toBeLessThanOrEqual(scheduled + (outcomes.cancelled ?? 0));
    // Nothing in flight anywhere: picker accounting, gateway gauges, upstream requests.
    expect(pool.list().map((e) => e.inFlightRequests)).toEqual([0, 0]);
    expect(up.map((u) => u.open)).toEqual([0, 0]);
    const metrics = (await get(`${gw.url}/metrics`)).text;
    expect(metrics).toMatch(/switchyard_gateway_in_flight_requests\{pool="default"\} 0/);
    expect(metrics).toMatch(/switchyard_gateway_scheduling_requests\{pool="default"\} 0/);
    const connections = await new Promise<number>((resolve, reject) => {
      gw.server.getConnections((err, n) => {
        if (err) reject(err);
        else resolve(n);
      });
    });
    expect(connections).toBeLessThanOrEqual(1); // the /metrics request's own keep-alive socket
  }, 60_000);
});
