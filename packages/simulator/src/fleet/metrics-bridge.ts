import { extractEndpointMetrics, parsePrometheusText, type EndpointMetrics } from '@switchyard/core';
import type { EngineModel } from '../engine/engine.js';
import { renderMetrics } from '../engine/metrics-view.js';

/**
 * What a scrape of `engine` yields, straight from its published state (gauges as of its last
 * step, as vLLM publishes them): the same values the vLLM metrics page would carry, without
 * rendering and parsing it.
 * @public
 * @category Fleet
 */
export function engineMetrics(engine: EngineModel, now: number): EndpointMetrics {
  const s = engine.metricsSnapshot();
  const c = engine.config;
  return {
    waitingQueueSize: s.waiting,
    runningRequestsSize: s.running,
    kvCacheUsagePercent: s.kvCacheUsage,
    activeModels: s.runningAdapters,
    waitingModels: s.waitingAdapters,
    maxActiveModels: c.loraAdapters.length > 0 ? c.maxLoras : 0,
    cacheBlockSize: c.blockSize,
    cacheNumBlocks: c.numGpuBlocks,
    updatedAt: now,
  };
}

/**
 * A scrape through the real text path: the engine's `/metrics` page parsed by core's Prometheus
 * parser and vLLM mapping, exactly as the live data layer does it.
 * @public
 * @category Fleet
 */
export function scrapeEngineMetrics(engine: EngineModel, now: number, previous?: EndpointMetrics): EndpointMetrics {
  return extractEndpointMetrics('vllm', parsePrometheusText(renderMetrics(engine)), now, previous);
}
