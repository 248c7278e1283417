import { parsePrometheusText } from '@switchyard/core';
import type { LoadSample } from '@switchyard/simulator';

/** Engine counters summed over pods, as their `/metrics` report them. */
export interface EngineCounters {
  readonly prefixQueries: number;
  readonly prefixHits: number;
  readonly preemptions: number;
}

async function scrape(address: string): Promise<Map<string, number>> {
  const text = await (await fetch(`http://${address}/metrics`)).text();
  const out = new Map<string, number>();
  for (const family of parsePrometheusText(text)) {
    for (const s of family.samples) out.set(s.name, (out.get(s.name) ?? 0) + s.value);
  }
  return out;
}

const value = (m: Map<string, number>, name: string): number => m.get(name) ?? m.get(`${name}_total`) ?? 0;

/** Reads the vLLM prefix-cache and preemption counters of every pod and sums them. */
export async function engineCounters(addresses: readonly string[]): Promise<EngineCounters> {
  const all = await Promise.all(addresses.map(scrape));
  const sum = (name: string): number => all.reduce((a, m) => a + value(m, name), 0);
  return { prefixQueries: sum('vllm:prefix_cache_queries'), prefixHits: sum('vllm:prefix_cache_hits'), preemptions: sum('vllm:num_preemptions') };
}

/** Samples every pod's queue and KV usage every `everyMs` until stopped. */
export function sampleLoad(addresses: readonly string[], everyMs: number): { stop(): LoadSample[] } {
  const samples: LoadSample[] = [];
  const start = performance.now();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    const t = performance.now() - start;
    void Promise.all(
      addresses.map(async (endpoint) => {
        try {
          const m = await scrape(endpoint);
          samples.push({ t, endpoint, running: value(m, 'vllm:num_requests_running'), waiting: value(m, 'vllm:num_requests_waiting'), kvUsage: value(m, 'vllm:kv_cache_usage_perc') });
        } catch {
          // A pod busy or gone for one sample is not worth failing the demo.
        }
      }),
    ).finally(() => {
      busy = false;
    });
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}
