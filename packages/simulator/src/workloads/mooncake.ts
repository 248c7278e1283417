import { SwitchyardError } from '@switchyard/core';
import { createRng, mix32 } from '../util/prng.js';
import type { PromptPart, Workload, WorkloadItem } from './types.js';

/**
 * Options of {@link mooncakeTraceWorkload}.
 * @public
 * @category Workloads
 */
export interface MooncakeOptions {
  /** Tokens per hash id (Mooncake traces use 512). */
  readonly blockTokens?: number;
  /** Replay this many times faster (timestamps are divided by it; default 1). */
  readonly speedup?: number;
  /** Keep at most this many requests (default all). */
  readonly maxRequests?: number;
  /** Keep requests whose (sped-up) arrival is before this, ms (default all). */
  readonly durationMs?: number;
  /** Name shown in reports (default `trace`). */
  readonly name?: string;
  /**
   * Spread requests that share a quantised timestamp over their tick (default `true`: on when
   * the trace looks quantised, see {@link detectTickMs}); a number forces that tick in ms;
   * `false` replays timestamps literally.
   */
  readonly dequantize?: boolean | number;
  /** Seed of the de-quantisation spread (default 1). */
  readonly seed?: number;
}

/**
 * The tick a trace's timestamps are quantised to, ms, or undefined when they are not: at least
 * half of the requests share their timestamp with another and every distinct timestamp is a
 * multiple of the smallest gap between them (Mooncake's conversation traces use 3 s ticks, so a
 * literal replay sends ~10 requests at once every tick).
 * @public
 * @category Workloads
 */
export function detectTickMs(timestamps: readonly number[]): number | undefined {
  const distinct = [...new Set(timestamps)].sort((a, b) => a - b);
  if (distinct.length < 2 || distinct.length > timestamps.length / 2) return undefined;
  let tick = Infinity;
  for (let i = 1; i < distinct.length; i++) tick = Math.min(tick, (distinct[i] ?? 0) - (distinct[i - 1] ?? 0));
  if (!(tick >= 1)) return undefined;
  const base = distinct[0] ?? 0;
  return distinct.every((t) => Math.abs(((t - base) / tick) - Math.round((t - base) / tick)) < 1e-6) ? tick : undefined;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * Replays a Mooncake-format JSONL trace (`{"timestamp": ms, "input_length", "output_length",
 * "hash_ids": [...]}` per line). Each hash id stands for one block of `blockTokens` tokens with
 * fixed synthetic content, so requests that share leading hash ids share exactly that prefix;
 * input beyond the hashed blocks is unique to the request, and a short last block is cut.
 * @throws SwitchyardError `CONFIG_INVALID` naming the line and field of a malformed record
 * @public
 * @category Workloads
 */
export function mooncakeTraceWorkload(jsonl: string, options: MooncakeOptions = {}): Workload {
  const blockTokens = options.blockTokens ?? 512;
  const speedup = options.speedup ?? 1;
  if (!(speedup > 0)) throw new SwitchyardError('CONFIG_INVALID', `trace.speedup: expected a positive number, got ${String(speedup)}`);
  const items: WorkloadItem[] = [];
  const lines = jsonl.split('\n');
  let first: number | undefined;
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln]?.trim() ?? '';
    if (line === '') continue;
    if (options.maxRequests !== undefined && items.length >= options.maxRequests) break;
    const where = `trace line ${ln + 1}`;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new SwitchyardError('CONFIG_INVALID', `${where}: invalid JSON`);
    }
    const { timestamp, input_length: input, output_length: output, hash_ids: hashIds } = rec;
    if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) throw new SwitchyardError('CONFIG_INVALID', `${where}.timestamp: expected a number of ms`);
    if (!isInt(input) || input < 1) throw new SwitchyardError('CONFIG_INVALID', `${where}.input_length: expected a positive integer`);
    if (!isInt(output) || output < 1) throw new SwitchyardError('CONFIG_INVALID', `${where}.output_length: expected a positive integer`);
    if (!Array.isArray(hashIds) || !hashIds.every(isInt)) throw new SwitchyardError('CONFIG_INVALID', `${where}.hash_ids: expected an array of non-negative integers`);
    first ??= timestamp;
    const arrivalMs = (timestamp - first) / speedup;
    if (options.durationMs !== undefined && arrivalMs >= options.durationMs) break;
    const prompt: PromptPart[] = [];
    let left = input;
    for (const h of hashIds) {
      if (left <= 0) break;
      const n = Math.min(blockTokens, left);
      prompt.push({ seed: mix32(h * 2_654_435_761 + 0x6d6f6f6e), length: n });
      left -= n;
    }
    if (left > 0) prompt.push({ seed: mix32(ln * 40_503 + 0x7a11), length: left });
    items.push({
      id: `tr-${items.length}`,
      arrivalMs,
      prompt,
      promptLength: input,
      maxOutputTokens: output,
      outputSeed: mix32(ln + 0x0ff5e7),
      tenant: typeof rec.tenant === 'string' ? rec.tenant : 'default',
      priority: 0,
      adapter: undefined,
      session: typeof rec.session_id === 'string' || typeof rec.session_id === 'number' ? String(rec.session_id) : undefined,
      after: undefined,
      delayMs: 0,
    });
  }
  const tick = options.dequantize === false ? undefined : typeof options.dequantize === 'number' ? options.dequantize : detectTickMs(items.map((it) => it.arrivalMs));
  const spread = tick === undefined ? items : dequantize(items, tick / speedup, options.seed ?? 1);
  spread.sort((a, b) => a.arrivalMs - b.arrivalMs);
  return {
    name: options.name ?? 'trace',
    description: `Mooncake trace replay: ${spread.length} requests, ${blockTokens}-token blocks, speedup ${speedup}×${tick === undefined ? '' : `, ${tick} ms ticks spread`}`,
    params: { format: 'mooncake-jsonl', blockTokens, speedup, maxRequests: options.maxRequests, durationMs: options.durationMs, dequantizeTickMs: tick },
    items: spread,
  };
}

/**
 * Spreads the requests of each tick evenly over it, in trace order, each with a random offset
 * within its slot: requests logged in the same tick arrived somewhere within it, not together.
 */
function dequantize(items: readonly WorkloadItem[], tickMs: number, seed: number): WorkloadItem[] {
  const rng = createRng(seed).fork('dequantize');
  const groups = new Map<number, WorkloadItem[]>();
  for (const it of items) groups.set(it.arrivalMs, [...(groups.get(it.arrivalMs) ?? []), it]);
  const out: WorkloadItem[] = [];
  for (const [t, group] of groups) {
    group.forEach((it, k) => out.push({ ...it, arrivalMs: t + (tickMs * (k + rng.next())) / group.length }));
  }
  return out;
}
