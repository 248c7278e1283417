import { afterEach, describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, MetricsScraper, SwitchyardError, type MetricsFetcher } from '@switchyard/core';
import { SGLANG_PAGE, vllmMetricsPage } from '../testing/index.js';

/** Lets pending promise callbacks (fetch resolution, `finally`) run. */
const flush = (): Promise<void> => new Promise((resolve) => { setImmediate(resolve); });

interface Call {
  readonly url: string;
  readonly at: number;
  readonly signal: AbortSignal;
  resolve(text: string): void;
  reject(err: Error): void;
}

/** A fetcher whose calls the test settles by hand; aborts reject like a real transport. */
function manualFetcher(clock: ManualClock): { fetch: MetricsFetcher; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: MetricsFetcher = (url, signal) =>
    new Promise<string>((resolve, reject) => {
      signal.addEventListener('abort', () => { reject(signal.reason as Error); }, { once: true });
      calls.push({ url, at: clock.now(), signal, resolve, reject });
    });
  return { fetch, calls };
}

let scraper: MetricsScraper | undefined;
afterEach(async () => {
  await scraper?.stop();
  scraper = undefined;
});

describe('MetricsScraper (virtual time)', () => {
  it('validates its options', () => {
    const pool = new EndpointPool();
    expect(() => new MetricsScraper({ pool, intervalMs: 10 })).toThrow(SwitchyardError);
    expect(() => new MetricsScraper({ pool, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new MetricsScraper({ pool, scheme: 'ftp' as 'http' })).toThrow(/scheme must be "http" or "https", got "ftp"/);
    // TLS settings belong to the built-in fetcher; a custom one brings its own.
    expect(() => new MetricsScraper({ pool, tls: { rejectUnauthorized: false }, fetch: () => Promise.resolve('') })).toThrow(/`tls` configures the built-in fetcher/);
  });

  it('polls the scheme, host, metrics port and path it was given', () => {
    const pool = new EndpointPool();
    const endpoint = pool.add({ id: 'a', address: '10.0.0.1:8000', metricsPort: 9000 });
    const fetch = (): Promise<string> => Promise.resolve('');
    expect(new MetricsScraper({ pool, fetch }).urlOf(endpoint)).toBe('http://10.0.0.1:9000/metrics');
    expect(new MetricsScraper({ pool, fetch, scheme: 'https', path: '/engine/metrics' }).urlOf(endpoint)).toBe('https://10.0.0.1:9000/engine/metrics');
  });

  it('polls at the interval, never overlaps polls of one endpoint, and pushes metrics', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000', metricsPort: 9000 });
    const { fetch, calls } = manualFetcher(clock);
    scraper = new MetricsScraper({ pool, clock, fetch, intervalMs: 100, timeoutMs: 1000 });
    const seen: number[] = [];
    scraper.on('scrape', (ep, m) => seen.push(m.runningRequestsSize));
    scraper.start();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('http://10.0.0.1:9000/metrics');
    clock.advance(500); // slow response: no second poll while the first is in flight
    expect(calls).toHaveLength(1);
    calls[0]?.resolve(vllmMetricsPage({ running: 4 }));
    await flush();
    expect(seen).toEqual([4]);
    expect(pool.get('a')?.metrics?.runningRequestsSize).toBe(4);
    expect(pool.get('a')?.metrics?.updatedAt).toBe(500);
    expect(scraper.staleness('a')).toBe(0);
    // The slow poll overran the interval, so the next one is due at once.
    clock.advance(0);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.at).toBe(500);
    calls[1]?.resolve(vllmMetricsPage({ running: 5 }));
    await flush();
    // A fast poll keeps the cadence: the next one is due 100 ms after the previous started.
    clock.advance(99);
    expect(calls).toHaveLength(2);
    clock.advance(1);
    expect(calls).toHaveLength(3);
    expect(calls[2]?.at).toBe(600);
    calls[2]?.resolve(vllmMetricsPage({ running: 6 }));
    await flush();
    expect(seen).toEqual([4, 5, 6]);
    clock.advance(40);
    expect(scraper.staleness('a')).toBe(40);
    expect(scraper.status('a')).toMatchObject({ consecutiveFailures: 0, lastSuccessAt: 600, polling: false });
  });

  it('backs off exponentially on failure (capped) and resets on success', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    const { fetch, calls } = manualFetcher(clock);
    scraper = new MetricsScraper({ pool, clock, fetch, intervalMs: 50, maxBackoffMs: 300 });
    const failures: number[] = [];
    const recoveries: [string, number][] = [];
    scraper.on('error', (_ep, err, n) => {
      expect(err.code).toBe('UPSTREAM_UNAVAILABLE');
      failures.push(n);
    });
    scraper.on('recovered', (ep, n) => recoveries.push([ep.id, n]));
    scraper.start();
    for (let i = 0; i < 5; i++) {
      calls[i]?.reject(new Error('connect ECONNREFUSED'));
      await flush();
      clock.runNext();
    }
    // Delays after failures 1..4: 100, 200, 300 (cap), 300.
    expect(calls.map((c) => c.at)).toEqual([0, 100, 300, 600, 900, 1200]);
    expect(failures).toEqual([1, 2, 3, 4, 5]);
    expect(scraper.status('a')?.lastError?.message).toContain('ECONNREFUSED');
    expect(scraper.staleness('a')).toBe(Infinity);
    calls[5]?.resolve(vllmMetricsPage());
    await flush();
    clock.runNext();
    expect(calls[6]?.at).toBe(1250);
    expect(scraper.status('a')).toMatchObject({ consecutiveFailures: 0, lastError: undefined });
    expect(recoveries).toEqual([['a', 5]]);
    // A success after a success is no recovery.
    calls[6]?.resolve(vllmMetricsPage());
    await flush();
    expect(recoveries).toHaveLength(1);
  });

  it('times out on the injected clock and treats pages without engine metrics as failures', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    const { fetch, calls } = manualFetcher(clock);
    scraper = new MetricsScraper({ pool, clock, fetch, intervalMs: 50, timeoutMs: 200 });
    const errors: SwitchyardError[] = [];
    const stages: string[] = [];
    scraper.on('error', (_ep, err, _n, stage) => {
      errors.push(err);
      stages.push(stage);
    });
    scraper.start();
    clock.advance(199);
    expect(calls[0]?.signal.aborted).toBe(false);
    clock.advance(1);
    await flush();
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(errors[0]?.code).toBe('UPSTREAM_TIMEOUT');
    expect(errors[0]?.message).toContain('timed out after 200 ms');
    clock.runNext();
    calls[1]?.resolve('# nothing here\nprocess_cpu_seconds_total 3\n');
    await flush();
    expect(errors[1]?.message).toContain('no vllm metrics in the response');
    expect(pool.get('a')?.metrics).toBeUndefined();
    // llm-d counts them apart: the timeout in poll errors, the unreadable page in extract errors.
    expect(stages).toEqual(['poll', 'extract']);
  });

  it('follows pool membership and stops cleanly', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    const { fetch, calls } = manualFetcher(clock);
    scraper = new MetricsScraper({ pool, clock, fetch });
    scraper.start();
    expect(calls).toHaveLength(0);
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    pool.add({ id: 'b', address: '[fd00::2]:8000', labels: { 'llm-d.ai/engine-type': 'sglang' } });
    expect(calls.map((c) => c.url)).toEqual(['http://10.0.0.1:8000/metrics', 'http://[fd00::2]:8000/metrics']);
    pool.remove('a');
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(scraper.staleness('a')).toBeUndefined();
    calls[1]?.resolve(SGLANG_PAGE);
    await flush();
    expect(pool.get('b')?.metrics?.runningRequestsSize).toBe(7);
    clock.advance(1000);
    expect(calls.filter((c) => c.url.includes('10.0.0.1'))).toHaveLength(1);
    await scraper.stop();
    expect(clock.pendingTimers).toBe(0);
    expect(calls.at(-1)?.signal.aborted).toBe(true);
    pool.add({ id: 'c', address: '10.0.0.3:8000' });
    expect(calls.some((c) => c.url.includes('10.0.0.3'))).toBe(false);
  });
});
