import { SwitchyardError } from '@switchyard/core';
import { mix32 } from '../util/prng.js';
import type { Workload, WorkloadItem } from './types.js';

/**
 * Options of {@link azureTraceWorkload}.
 * @public
 * @category Workloads
 */
export interface AzureTraceOptions {
  /** Replay this many times faster (default 1). */
  readonly speedup?: number;
  /** Keep at most this many requests (default all). */
  readonly maxRequests?: number;
  /** Keep requests whose (sped-up) arrival is before this, ms (default all). */
  readonly durationMs?: number;
  /** Name shown in reports (default `trace`). */
  readonly name?: string;
}

/** `2023-11-16 18:17:03.9799600` → ms since the epoch (UTC; fractions beyond ms kept). */
function parseTimestamp(raw: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(raw.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac] = m;
  const whole = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  return whole + (frac === undefined ? 0 : Number(`0.${frac}`) * 1000);
}

/**
 * Replays the Azure LLM inference trace CSV format (`TIMESTAMP,ContextTokens,GeneratedTokens`,
 * as in Azure/AzurePublicDataset's 2023 code and conversation traces): arrivals and lengths
 * only. The trace carries no prompt content, so every prompt is unique (no prefix reuse: the
 * bounds will say so) and each request generates exactly `GeneratedTokens`.
 * @throws SwitchyardError `CONFIG_INVALID` naming the line and column of a malformed row
 * @public
 * @category Workloads
 */
export function azureTraceWorkload(csv: string, options: AzureTraceOptions = {}): Workload {
  const speedup = options.speedup ?? 1;
  if (!(speedup > 0)) throw new SwitchyardError('CONFIG_INVALID', `trace.speedup: expected a positive number, got ${String(speedup)}`);
  const lines = csv.split('\n');
  const header = (lines[0] ?? '').trim().split(',').map((h) => h.trim());
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new SwitchyardError('CONFIG_INVALID', `trace line 1: missing column ${name} (expected TIMESTAMP,ContextTokens,GeneratedTokens)`);
    return i;
  };
  const [ts, ctx, gen] = [col('TIMESTAMP'), col('ContextTokens'), col('GeneratedTokens')];
  const items: WorkloadItem[] = [];
  let first: number | undefined;
  for (let ln = 1; ln < lines.length; ln++) {
    const line = lines[ln]?.trim() ?? '';
    if (line === '') continue;
    if (options.maxRequests !== undefined && items.length >= options.maxRequests) break;
    const cells = line.split(',');
    const where = `trace line ${ln + 1}`;
    const at = parseTimestamp(cells[ts] ?? '');
    if (at === undefined) throw new SwitchyardError('CONFIG_INVALID', `${where}.TIMESTAMP: expected "YYYY-MM-DD hh:mm:ss[.fraction]", got "${cells[ts] ?? ''}"`);
    const input = Number(cells[ctx]);
    const output = Number(cells[gen]);
    if (!Number.isInteger(input) || input < 1) throw new SwitchyardError('CONFIG_INVALID', `${where}.ContextTokens: expected a positive integer, got "${cells[ctx] ?? ''}"`);
    if (!Number.isInteger(output) || output < 0) throw new SwitchyardError('CONFIG_INVALID', `${where}.GeneratedTokens: expected an integer >= 0, got "${cells[gen] ?? ''}"`);
    first ??= at;
    const arrivalMs = (at - first) / speedup;
    if (options.durationMs !== undefined && arrivalMs >= options.durationMs) break;
    items.push({
      id: `az-${items.length}`,
      arrivalMs,
      prompt: [{ seed: mix32(ln * 2_246_822_519 + 0xa2e), length: input }],
      promptLength: input,
      // A request that generated nothing still produced its first token before stopping.
      maxOutputTokens: Math.max(1, output),
      outputSeed: mix32(ln + 0xa2e0ff),
      tenant: 'default',
      priority: 0,
      adapter: undefined,
      session: undefined,
      after: undefined,
      delayMs: 0,
    });
  }
  items.sort((a, b) => a.arrivalMs - b.arrivalMs);
  return {
    name: options.name ?? 'trace',
    description: `Azure trace replay: ${items.length} requests (arrivals and lengths, no prefix information), speedup ${speedup}×`,
    params: { format: 'azure-csv', speedup, maxRequests: options.maxRequests, durationMs: options.durationMs },
    items,
  };
}
