import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { systemClock, type SchedulingRequest } from '@switchyard/core';
import { harness, request } from '../test-support/flow-harness.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap plus ArrayBuffer bytes after full collections. */
function settled(): number {
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const N = 50_000;
const BODY = 2048;

function requests(n: number): SchedulingRequest[] {
  return Array.from({ length: n }, (_, i) => {
    const r = request({ fairnessId: `tenant-${i % 1000}`, priority: [100, 0, -10][i % 3] ?? 0, bytes: BODY });
    // A real body of BODY bytes, as the parser keeps it.
    (r.request as { rawBody: Uint8Array }).rawBody = new Uint8Array(BODY);
    return r;
  });
}

/** Bytes per request the caller holds anyway, and bytes flow control adds per queued request. */
async function measure(withSignals: boolean): Promise<{ request: number; queued: number }> {
  const { fc } = harness(1, { clock: systemClock, config: { defaultPriorityBand: { maxRequests: 2 * N }, defaultNegativePriorityBand: { maxRequests: 2 * N } } });
  // Warm up: create the 3 bands and 1,000 flows, and optimise the code paths.
  for (const r of requests(3000)) fc.admit(r).catch(() => undefined);
  const empty = settled();
  const reqs = requests(N);
  const signals = reqs.map(() => new AbortController().signal);
  const withRequests = settled();
  const held = reqs.map((r, i) => (withSignals ? fc.admit(r, { signal: signals[i] as AbortSignal }) : fc.admit(r)));
  const queued = settled();
  expect(fc.stats().queuedRequests).toBe(N + 3000 - 1);
  expect(held).toHaveLength(N);
  const result = { request: (withRequests - empty) / N, queued: (queued - withRequests) / N };
  for (const p of held) p.catch(() => undefined);
  // Answers the queued requests (503) and stops the TTL timer; one warm-up grant stays in flight.
  void fc.close();
  await Promise.resolve();
  return result;
}

describe('memory per queued request', () => {
  it('costs at most 512 B on top of the request the caller holds (which includes the body)', async () => {
    const plain = await measure(false);
    const cancellable = await measure(true);
    console.log(
      `[memory] caller-held request with a ${BODY} B body and its AbortController: ${cancellable.request.toFixed(0)} B; ` +
        `flow control per queued request: ${plain.queued.toFixed(0)} B without a signal, ${cancellable.queued.toFixed(0)} B with one ` +
        '(item, promise and its resolve function, heap slots, abort listener registration and map entry)',
    );
    expect(plain.queued).toBeLessThanOrEqual(512);
    expect(cancellable.queued).toBeLessThanOrEqual(512);
    // Six full collections over 100k queued requests: slow on a busy machine, so a longer timeout.
  }, 120_000);
});
