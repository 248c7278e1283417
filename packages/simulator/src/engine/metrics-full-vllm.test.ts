import { describe, expect, it } from 'vitest';
import { ENGINE_METRIC_MAPPINGS, ManualClock, extractEndpointMetrics, indexSamples, parsePrometheusText } from '@switchyard/core';
import { EngineModel, ModelServer, renderMetrics } from '@switchyard/simulator';

function busyEngine(): EngineModel {
  const engine = new EngineModel({ clock: new ManualClock(), profile: 'tiny', overrides: { maxNumSeqs: 1 } });
  engine.submit({ id: 'a', promptTokens: new Uint32Array(64).fill(7), maxOutputTokens: 50 });
  engine.submit({ id: 'b', promptTokens: new Uint32Array(64).fill(9), maxOutputTokens: 50 });
  return engine;
}

const read = (page: string) => extractEndpointMetrics(ENGINE_METRIC_MAPPINGS.vllm, indexSamples(parsePrometheusText(page)), 0, undefined);

describe('full vLLM exposition', () => {
  it('carries a real page’s families and size, with the modelled values unchanged', () => {
    const engine = busyEngine();
    const modelled = renderMetrics(engine);
    const full = renderMetrics(engine, { exposition: 'full' });
    expect(full.length).toBeGreaterThan(2.5 * modelled.length);
    expect(full.startsWith('# HELP python_gc_objects_collected_total')).toBe(true);
    for (const family of ['process_resident_memory_bytes', 'vllm:request_prompt_tokens_bucket', 'vllm:request_prefill_time_seconds_count', 'vllm:iteration_tokens_total_bucket']) expect(full).toContain(family);
    // cache_config_info comes last, as on a real pod (it is registered after the engine starts).
    expect(full.lastIndexOf('# TYPE')).toBe(full.indexOf('# TYPE vllm:cache_config_info'));
    expect(read(full)).toEqual(read(modelled));
  });
});

describe('ModelServer metricsCacheMs (lean mode)', () => {
  it('serves the same page within the cache window and a fresh one without it', async () => {
    const lean = new ModelServer({ profile: 'tiny', metricsCacheMs: 3_600_000 });
    const fresh = new ModelServer({ profile: 'tiny' });
    const urls = [await lean.listen(0), await fresh.listen(0)].map((a) => `${a.url}/metrics`);
    try {
      const before = await Promise.all(urls.map(async (u) => (await fetch(u)).text()));
      for (const s of [lean, fresh]) s.engine.submit({ id: 'x', promptTokens: new Uint32Array(32).fill(1), maxOutputTokens: 10_000 });
      const after = await Promise.all(urls.map(async (u) => (await fetch(u)).text()));
      expect(after[0]).toBe(before[0]);
      expect(after[1]).not.toBe(before[1]);
    } finally {
      await Promise.all([lean.close(), fresh.close()]);
    }
  });
});
