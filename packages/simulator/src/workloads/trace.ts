import { azureTraceWorkload } from './azure.js';
import { mooncakeTraceWorkload } from './mooncake.js';
import type { Workload } from './types.js';

/**
 * Options of {@link traceWorkload}.
 * @public
 * @category Workloads
 */
export interface TraceOptions {
  /** Replay speed-up (default 1). */
  readonly speedup?: number;
  /** Keep requests arriving before this (after the speed-up), ms. */
  readonly durationMs?: number;
  /** Mooncake tick de-quantisation (default on when quantised). */
  readonly dequantize?: boolean | number;
  /** Name shown in reports. */
  readonly name?: string;
  /** Seed. */
  readonly seed?: number;
}

/**
 * Replays a trace file's text, recognising its format: Mooncake JSONL (lines starting with `{`)
 * or the Azure LLM inference CSV (`TIMESTAMP,ContextTokens,GeneratedTokens`).
 * @throws SwitchyardError `CONFIG_INVALID` naming the line and field of a malformed record
 * @public
 * @category Workloads
 */
export function traceWorkload(text: string, o: TraceOptions = {}): Workload {
  const common = { speedup: o.speedup ?? 1, ...(o.durationMs === undefined ? {} : { durationMs: o.durationMs }), ...(o.name === undefined ? {} : { name: o.name }) };
  if (text.trimStart().startsWith('{')) {
    return mooncakeTraceWorkload(text, { ...common, ...(o.dequantize === undefined ? {} : { dequantize: o.dequantize }), ...(o.seed === undefined ? {} : { seed: o.seed }) });
  }
  return azureTraceWorkload(text, common);
}
