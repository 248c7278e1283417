import { z } from 'zod';
import type { InferenceRequest } from '../request/types.js';

/**
 * How `Prefer: if-available` (serve only from cache, else 412) is honoured:
 * - `off` (default): the preference is ignored and the request is served. Answering 412 from the
 *   shared prefix index would let any client test, at no inference cost, whether another
 *   tenant's prompt is cached;
 * - `own-history`: 412 unless the chosen endpoint holds a cached prefix *and* this fairness id
 *   itself sent that prefix to that endpoint before, so a client learns only about its own
 *   history (fairness ids must then come from a trusted source, not from the client);
 * - `shared`: the shared index alone decides (the old behaviour; only for a single tenant).
 * @public
 * @category EndpointPicker façade
 */
export type IfAvailableMode = 'off' | 'own-history' | 'shared';

/** The modes as values, for the config schema and the option rule (checked against the type). @internal */
export const IF_AVAILABLE_MODES = ['off', 'own-history', 'shared'] as const satisfies readonly IfAvailableMode[];

/**
 * Settings of `Prefer: if-available`.
 * @public
 * @category EndpointPicker façade
 */
export interface IfAvailableOptions {
  /** See {@link IfAvailableMode}. @defaultValue 'off' */
  readonly mode?: IfAvailableMode | undefined;
  /** Prefix digests remembered for `own-history` (oldest forgotten first). @defaultValue 100000 */
  readonly maxHistory?: number | undefined;
}

/**
 * Schema of `switchyard.ifAvailable` in an EndpointPickerConfig (both the EPP and the gateway
 * read it): `{ mode: off | own-history | shared, maxHistory }`.
 * @public
 * @category EndpointPicker façade
 */
export const ifAvailableSectionSchema = z.strictObject({
  mode: z.enum(IF_AVAILABLE_MODES).optional(),
  maxHistory: z.number().int().positive().optional(),
});


/** Characters per prefix chunk; a prefix counts from its first whole chunk. */
const CHUNK = 512;
/** Chunks remembered per request (prefixes up to 32k characters). */
const MAX_CHUNKS = 64;

/** A prompt as text whose earlier turns are a prefix of its later ones. */
function promptText(r: InferenceRequest): string {
  const p = r.prompt;
  if (p.kind === 'text') return p.texts.join('\n');
  if (p.kind === 'chat') return JSON.stringify(p.messages).slice(0, -1);
  if (p.kind === 'tokens') return (p.tokenIds[0] ?? []).join(',');
  return '';
}

/** Digests of the prompt's whole-chunk prefixes (FNV-1a, two lanes, chained). */
function prefixDigests(text: string): string[] {
  const out: string[] = [];
  let a = 0x811c9dc5;
  let b = 0x01000193;
  const chunks = Math.min(MAX_CHUNKS, Math.floor(text.length / CHUNK));
  for (let c = 0; c < chunks; c++) {
    for (let i = c * CHUNK; i < (c + 1) * CHUNK; i++) {
      const ch = text.charCodeAt(i);
      a = Math.imul(a ^ ch, 0x01000193);
      b = Math.imul(b ^ ch, 0x5bd1e995) ^ (b >>> 15);
    }
    out.push(`${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`);
  }
  return out;
}

/**
 * Which prefixes each fairness id sent to each endpoint, bounded (insertion order, oldest
 * dropped), for the `own-history` mode.
 * @internal
 */
export class IfAvailablePolicy {
  readonly mode: IfAvailableMode;
  readonly #max: number;
  readonly #seen = new Map<string, true>();

  /** @param options - resolved (`PICKER_DEFAULTS.ifAvailable` filled in and checked) */
  constructor(options: { readonly mode: IfAvailableMode; readonly maxHistory: number }) {
    this.mode = options.mode;
    this.#max = options.maxHistory;
  }

  /** Whether this fairness id sent a prefix of `request` to `endpointId` before. */
  sentBefore(fairnessId: string, endpointId: string, request: InferenceRequest): boolean {
    for (const d of prefixDigests(promptText(request))) if (this.#seen.has(`${fairnessId}\u0000${endpointId}\u0000${d}`)) return true;
    return false;
  }

  /** Remembers the request's prefixes as sent by `fairnessId` to `endpointId` (own-history only). */
  record(fairnessId: string, endpointId: string, request: InferenceRequest): void {
    if (this.mode !== 'own-history') return;
    for (const d of prefixDigests(promptText(request))) {
      const key = `${fairnessId}\u0000${endpointId}\u0000${d}`;
      this.#seen.delete(key);
      this.#seen.set(key, true);
      if (this.#seen.size > this.#max) this.#seen.delete(this.#seen.keys().next().value as string);
    }
  }
}
