import type { EndpointMetrics, EngineType } from '../endpoints/types.js';
import { ENGINE_METRIC_MAPPINGS, type EngineMetricMapping, type MetricSelector } from './engine-mappings.js';
import { indexSamples, labelsMatch } from './samples.js';
import type { MetricFamily, Sample } from './types.js';

/**
 * Samples by sample name, as built by {@link indexSamples}; extraction accepts it to avoid
 * re-indexing a page.
 * @public
 * @category Model-server metrics
 */
export type SampleIndex = ReadonlyMap<string, readonly Sample[]>;

/** Newest-timestamp matching sample of the first selector that has one (first series on ties). */
function latest(index: SampleIndex, selectors: readonly MetricSelector[]): Sample | undefined {
  for (const sel of selectors) {
    let best: Sample | undefined;
    let bestTs = -Infinity;
    for (const s of index.get(sel.name) ?? []) {
      if (!labelsMatch(s, sel.labels)) continue;
      const ts = s.timestampMs ?? -1;
      if (best === undefined || ts > bestTs) {
        best = s;
        bestTs = ts;
      }
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

/** The LoRA info series with the largest value (its value is a creation timestamp; stale label sets linger). */
function largest(index: SampleIndex, selectors: readonly MetricSelector[]): Sample | undefined {
  for (const sel of selectors) {
    let best: Sample | undefined;
    for (const s of index.get(sel.name) ?? []) {
      if (labelsMatch(s, sel.labels) && (best === undefined || s.value > best.value)) best = s;
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

const count = (v: number): number => (Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0);
const fraction = (v: number): number => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : v === Infinity ? 1 : 0);
const intLabel = (v: string | undefined): number | undefined => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined);
const list = (v: string | undefined): string[] => [...new Set((v ?? '').split(',').map((s) => s.trim()).filter((s) => s !== ''))];

/**
 * Which of the core metrics (waiting, running, KV usage) a scrape lacks for an engine; an empty
 * list means the page is usable. The scraper treats "all three missing" as a failed scrape.
 * @public
 * @category Model-server metrics
 */
export function missingCoreMetrics(engine: EngineType | EngineMetricMapping, families: readonly MetricFamily[] | SampleIndex): string[] {
  const mapping = typeof engine === 'string' ? ENGINE_METRIC_MAPPINGS[engine] : engine;
  const index = families instanceof Map ? families : indexSamples(families as readonly MetricFamily[]);
  const missing: string[] = [];
  for (const sel of [mapping.waiting, mapping.running, mapping.kvUsage]) {
    if (latest(index, sel) === undefined) missing.push(sel[0]?.name ?? '(none)');
  }
  return missing;
}

/**
 * Normalises one scrape into {@link EndpointMetrics} using the engine's mapping (reference table:
 * queue, running, KV usage, LoRA info, cache geometry). Counts are truncated to non-negative
 * integers; KV usage is clamped to [0, 1]. Fields whose metric is absent keep their value from
 * `previous` (or 0 / empty), so a partial page never zeroes known geometry.
 * @param now - clock time stored in `updatedAt`
 * @public
 * @category Model-server metrics
 */
export function extractEndpointMetrics(
  engine: EngineType | EngineMetricMapping,
  families: readonly MetricFamily[] | SampleIndex,
  now: number,
  previous?: EndpointMetrics,
): EndpointMetrics {
  const mapping = typeof engine === 'string' ? ENGINE_METRIC_MAPPINGS[engine] : engine;
  const index = families instanceof Map ? families : indexSamples(families as readonly MetricFamily[]);
  const waiting = latest(index, mapping.waiting);
  const running = latest(index, mapping.running);
  const kv = latest(index, mapping.kvUsage);
  const lora = largest(index, mapping.loraInfo);

  let blockSize: number | undefined;
  let numBlocks: number | undefined;
  for (const sel of mapping.cacheInfo) {
    const info = latest(index, [sel]);
    if (info === undefined) continue;
    blockSize ??= intLabel(info.labels[sel.blockSizeLabel]);
    numBlocks ??= intLabel(info.labels[sel.numBlocksLabel]);
  }
  if (blockSize === undefined) {
    const s = latest(index, mapping.cacheBlockSize);
    if (s !== undefined) blockSize = count(s.value);
  }
  if (numBlocks === undefined) {
    const s = latest(index, mapping.cacheNumBlocks);
    if (s !== undefined) numBlocks = count(s.value);
  }

  return {
    waitingQueueSize: waiting === undefined ? (previous?.waitingQueueSize ?? 0) : count(waiting.value),
    runningRequestsSize: running === undefined ? (previous?.runningRequestsSize ?? 0) : count(running.value),
    kvCacheUsagePercent: kv === undefined ? (previous?.kvCacheUsagePercent ?? 0) : fraction(kv.value),
    activeModels: lora === undefined ? (previous?.activeModels ?? []) : list(lora.labels['running_lora_adapters']),
    waitingModels: lora === undefined ? (previous?.waitingModels ?? []) : list(lora.labels['waiting_lora_adapters']),
    maxActiveModels: lora === undefined ? (previous?.maxActiveModels ?? 0) : (intLabel(lora.labels['max_lora']) ?? 0),
    cacheBlockSize: blockSize ?? previous?.cacheBlockSize ?? 0,
    cacheNumBlocks: numBlocks ?? previous?.cacheNumBlocks ?? 0,
    updatedAt: now,
  };
}
