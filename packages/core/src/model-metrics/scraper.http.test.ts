import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EndpointPool, MetricsScraper, type EndpointMetrics, type MetricsScraperEvents, type SwitchyardError } from '@switchyard/core';
import { SGLANG_PAGE, vllmMetricsPage } from '../testing/index.js';

interface TestServer {
  readonly server: Server;
  readonly port: number;
  hits: number;
}

async function serve(handler: (res: ServerResponse, hit: number) => void): Promise<TestServer> {
  const t = { hits: 0 } as { hits: number; server: Server; port: number };
  t.server = createServer((req, res) => {
    t.hits++;
    if (req.url !== '/metrics') {
      res.statusCode = 404;
      res.end();
      return;
    }
    handler(res, t.hits);
  });
  await new Promise<void>((resolve) => { t.server.listen(0, '127.0.0.1', resolve); });
  t.port = (t.server.address() as AddressInfo).port;
  return t;
}

const text = (body: string) => (res: ServerResponse): void => {
  res.setHeader('content-type', 'text/plain; version=0.0.4; charset=utf-8');
  res.end(body);
};

let vllm: TestServer;
let sglang: TestServer;
let failing: TestServer;
let slow: TestServer;

beforeAll(async () => {
  vllm = await serve((res, hit) => { text(vllmMetricsPage({ running: 2, waiting: hit % 3, kv: 0.5 }))(res); });
  sglang = await serve(text(SGLANG_PAGE));
  failing = await serve((res) => {
    res.statusCode = 500;
    res.end('engine dead');
  });
  slow = await serve(() => { /* never answers */ });
});

afterAll(async () => {
  for (const t of [vllm, sglang, failing, slow]) {
    t.server.closeAllConnections();
    await new Promise<void>((resolve) => { t.server.close(() => { resolve(); }); });
  }
});

let scraper: MetricsScraper | undefined;
afterEach(async () => {
  await scraper?.stop();
  scraper = undefined;
});

/** Resolves with the arguments of the first `event` for endpoint `id` that passes `pred`. */
function next<E extends keyof MetricsScraperEvents>(s: MetricsScraper, event: E, id: string, pred: (...args: MetricsScraperEvents[E]) => boolean = () => true): Promise<MetricsScraperEvents[E]> {
  return new Promise((resolve) => {
    const listener = (...args: MetricsScraperEvents[E]): void => {
      if (args[0].id !== id || !pred(...args)) return;
      s.off(event, listener);
      resolve(args);
    };
    s.on(event, listener);
  });
}

describe('MetricsScraper over real HTTP', () => {
  it('scrapes vLLM and SGLang servers and pushes normalised metrics into the pool', async () => {
    const pool = new EndpointPool();
    pool.add({ id: 'vllm-0', address: `127.0.0.1:${vllm.port}` });
    pool.add({ id: 'sglang-0', address: `127.0.0.1:${sglang.port}`, labels: { 'llm-d.ai/engine-type': 'sglang' } });
    scraper = new MetricsScraper({ pool });
    const v = next(scraper, 'scrape', 'vllm-0');
    const s = next(scraper, 'scrape', 'sglang-0');
    scraper.start();
    const [[, vm], [, sm]] = await Promise.all([v, s]);
    expect(vm).toMatchObject<Partial<EndpointMetrics>>({ runningRequestsSize: 2, kvCacheUsagePercent: 0.5, cacheBlockSize: 16, cacheNumBlocks: 27000, activeModels: ['sql-lora', 'chat-lora'] });
    expect(sm).toMatchObject<Partial<EndpointMetrics>>({ runningRequestsSize: 7, waitingQueueSize: 4, kvCacheUsagePercent: 0.37, cacheBlockSize: 64 });
    expect(pool.get('vllm-0')?.metrics).toBe(vm);
    expect(pool.get('sglang-0')?.metrics).toBe(sm);
    // Keeps polling: later scrapes see the server's changing queue.
    const [, later] = await next(scraper, 'scrape', 'vllm-0', (_e, m) => m.waitingQueueSize !== vm.waitingQueueSize);
    expect(later.waitingQueueSize).not.toBe(vm.waitingQueueSize);
    expect(scraper.staleness('vllm-0')).toBeLessThan(Infinity);
  });

  it('reports HTTP failures with growing failure counts', async () => {
    const pool = new EndpointPool();
    pool.add({ id: 'bad', address: `127.0.0.1:${failing.port}` });
    scraper = new MetricsScraper({ pool, maxBackoffMs: 100 });
    const errors: SwitchyardError[] = [];
    scraper.on('error', (_ep, err) => errors.push(err));
    scraper.start();
    await next(scraper, 'error', 'bad', (_e, _err, n) => n >= 3);
    expect(errors[0]?.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(errors[0]?.message).toBe(`metrics scrape of endpoint "bad" (http://127.0.0.1:${failing.port}/metrics) failed: HTTP 500`);
    expect(scraper.status('bad')?.consecutiveFailures).toBeGreaterThanOrEqual(3);
    expect(pool.get('bad')?.metrics).toBeUndefined();
  });

  it('times out a server that never answers', async () => {
    const pool = new EndpointPool();
    pool.add({ id: 'slow', address: `127.0.0.1:${slow.port}` });
    scraper = new MetricsScraper({ pool, timeoutMs: 100 });
    scraper.start();
    const [, err] = await next(scraper, 'error', 'slow');
    expect(err.code).toBe('UPSTREAM_TIMEOUT');
    expect(err.message).toContain('timed out after 100 ms');
    expect(scraper.staleness('slow')).toBe(Infinity);
  });

  it('stops polling an endpoint once it leaves the pool', async () => {
    const pool = new EndpointPool();
    pool.add({ id: 'gone', address: `127.0.0.1:${vllm.port}` });
    pool.add({ id: 'stays', address: `127.0.0.1:${sglang.port}`, labels: { 'llm-d.ai/engine-type': 'sglang' } });
    scraper = new MetricsScraper({ pool });
    const first = next(scraper, 'scrape', 'gone');
    scraper.start();
    await first;
    pool.remove('gone');
    const hitsAtRemoval = vllm.hits;
    expect(scraper.status('gone')).toBeUndefined();
    let stays = 0;
    await next(scraper, 'scrape', 'stays', () => ++stays >= 4);
    expect(vllm.hits).toBe(hitsAtRemoval);
  });
});
