import { afterEach, describe, expect, it } from 'vitest';
import { EndpointPool, ENGINE_METRIC_MAPPINGS, ManualClock, MetricsScraper, mappingMetricNames, parsePrometheusText, type SwitchyardError } from '@switchyard/core';
import { vllmMetricsPage } from '../testing/index.js';

const flush = (): Promise<void> => new Promise((resolve) => { setImmediate(resolve); });
const MiB = 1024 * 1024;

/** A valid vLLM page followed by `padding` characters of families the mapping does not read. */
function bigPage(padding: number): string {
  const line = 'vllm:request_latency_bucket{le="0.5",model_name="m"} 1\n';
  return `${vllmMetricsPage()}\n# TYPE vllm:request_latency histogram\n${line.repeat(Math.ceil(padding / line.length))}`;
}

let scraper: MetricsScraper | undefined;
afterEach(async () => {
  await scraper?.stop();
  scraper = undefined;
});

/** Polls of one endpoint serving `page` during `ms` of virtual time. */
async function pollsIn(page: string, ms: number): Promise<number> {
  const clock = new ManualClock();
  const pool = new EndpointPool();
  pool.add({ id: 'a', address: '10.0.0.1:8000' });
  let polls = 0;
  scraper = new MetricsScraper({ pool, clock, fetch: () => { polls++; return Promise.resolve(page); } });
  scraper.start();
  for (let t = 0; t < ms; t += 10) {
    await flush();
    clock.advance(10);
  }
  await scraper.stop();
  scraper = undefined;
  return polls;
}

describe('large metrics pages', () => {
  it('stops reading once every value the mapping reads was found', () => {
    const vllm = ENGINE_METRIC_MAPPINGS.vllm;
    const names = mappingMetricNames(vllm);
    const filter = (n: string): boolean => names.has(n);
    // A second waiting sample after an unrelated family: only a full read reaches it.
    const page = `${bigPage(1000)}vllm:num_requests_waiting{engine="9"} 99\n`;
    const until = [vllm.waiting, vllm.running, vllm.kvUsage, vllm.loraInfo, vllm.cacheInfo].map((f) => f.map((s) => s.name));
    const waiting = (families: ReturnType<typeof parsePrometheusText>): number => families.find((f) => f.name === 'vllm:num_requests_waiting')?.samples.length ?? 0;
    expect(waiting(parsePrometheusText(page, { filter }))).toBe(2);
    expect(waiting(parsePrometheusText(page, { filter, until }))).toBe(1);
    // A group the page lacks means no early stop.
    expect(waiting(parsePrometheusText(page, { filter, until: [...until, ['vllm:absent']] }))).toBe(2);
  });

  it('polls a large page less often, in proportion to its size', async () => {
    const small = await pollsIn(vllmMetricsPage(), 2000);
    const large = await pollsIn(bigPage(3.5 * MiB), 2000);
    expect(small).toBeGreaterThanOrEqual(38);
    // 3.5 MiB = 4 units of 1 MiB: a poll every 200 ms instead of every 50.
    expect(large).toBeGreaterThanOrEqual(9);
    expect(large).toBeLessThanOrEqual(11);
  });

  it('rejects a page over maxPageBytes whatever the fetcher, and validates the option', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    const errors: SwitchyardError[] = [];
    const page = bigPage(2 * MiB);
    scraper = new MetricsScraper({ pool, clock, maxPageBytes: MiB, fetch: () => Promise.resolve(page) });
    scraper.on('error', (_e, error) => errors.push(error));
    scraper.start();
    await flush();
    expect(errors[0]?.message).toMatch(/exceeds maxPageBytes 1048576/);
    expect(pool.get('a')?.metrics).toBeUndefined();
    expect(() => new MetricsScraper({ pool, largePageBytes: 0 })).toThrow('metrics scraper largePageBytes must be a positive number, got 0');
  });
});

describe('reads that stop after the load gauges', () => {
  const gauges = (waiting: number): string => `# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting ${waiting}\n# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 1\n# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc 0.5\n`;
  const filler = '# TYPE vllm:e2e_request_latency_seconds histogram\nvllm:e2e_request_latency_seconds_bucket{le="1.0"} 3\n';
  const cache = (blockSize: number): string => `# TYPE vllm:cache_config_info gauge\nvllm:cache_config_info{block_size="${blockSize}",num_gpu_blocks="1000"} 1\n`;
  const lora = '# TYPE vllm:lora_requests_info gauge\nvllm:lora_requests_info{max_lora="2",running_lora_adapters="sql",waiting_lora_adapters=""} 1.7e9\n';

  it('re-read the cache geometry and look for LoRA info once every 20 polls, and read LoRA info on every poll once seen', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    let polls = 0;
    // Poll 1: block size 16, no LoRA. Later polls: block size 32, LoRA info at the end of the page.
    const page = (): string => (polls === 1 ? gauges(polls) + filler + cache(16) : gauges(polls) + filler + cache(32) + lora);
    const seen: { waiting: number; blockSize: number; lora: readonly string[] }[] = [];
    scraper = new MetricsScraper({ pool, clock, fetch: () => { polls++; return Promise.resolve(page()); } });
    scraper.on('scrape', (_e, m) => { seen.push({ waiting: m.waitingQueueSize, blockSize: m.cacheBlockSize, lora: m.activeModels }); });
    scraper.start();
    while (seen.length < 23) {
      await flush();
      clock.advance(10);
    }
    // Load gauges are fresh on every poll.
    expect(seen.map((s) => s.waiting)).toEqual(seen.map((_s, i) => i + 1));
    // Polls 2..20 stop after the gauges: the cache geometry and LoRA info keep their first reading.
    expect(seen.slice(0, 20).every((s) => s.blockSize === 16 && s.lora.length === 0)).toBe(true);
    // Poll 21 reads the whole page; LoRA info, now seen, is read on every poll after it.
    expect(seen.slice(20)).toEqual([{ waiting: 21, blockSize: 32, lora: ['sql'] }, { waiting: 22, blockSize: 32, lora: ['sql'] }, { waiting: 23, blockSize: 32, lora: ['sql'] }]);
  });
});
