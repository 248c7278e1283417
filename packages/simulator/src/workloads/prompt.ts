import { fillSyntheticTokens } from '../tokens/synthetic.js';
import { shareTokens } from '../util/shared-prompts.js';
import type { PromptPart, SyntheticSpan, WorkloadItem } from './types.js';

const partLength = (p: PromptPart): number => (p instanceof Uint32Array ? p.length : p.length);

/**
 * Total length of prompt parts.
 * @public
 * @category Workloads
 */
export function promptLengthOf(parts: readonly PromptPart[]): number {
  let n = 0;
  for (const p of parts) n += partLength(p);
  return n;
}

/** Spans shorter than this are generated each time; longer ones are cached. */
const CACHE_MIN_TOKENS = 256;
/** Token budget of the span cache (≈64 MiB). */
const CACHE_MAX_TOKENS = 16 * 1024 * 1024;
/** Recently generated long spans, least recently used first (Map order). */
const spanCache = new Map<string, Uint32Array>();
let cachedTokens = 0;

/** Tokens of a long synthetic span, from the cache when it was generated recently. */
function spanTokens(seed: number, offset: number, length: number): Uint32Array {
  const key = `${seed}:${offset}:${length}`;
  const hit = spanCache.get(key);
  if (hit !== undefined) {
    spanCache.delete(key);
    spanCache.set(key, hit);
    return hit;
  }
  const tokens = new Uint32Array(length);
  fillSyntheticTokens(tokens, 0, seed, offset, length);
  spanCache.set(key, tokens);
  cachedTokens += length;
  for (const [k, v] of spanCache) {
    if (cachedTokens <= CACHE_MAX_TOKENS) break;
    spanCache.delete(k);
    cachedTokens -= v.length;
  }
  return tokens;
}

/**
 * The token ids of a prompt (or of a workload item's prompt). Long synthetic spans (shared system
 * prompts, a conversation's history) are generated once and reused from a bounded cache, since
 * workloads repeat them request after request.
 * @public
 * @category Workloads
 */
export function materializePrompt(prompt: readonly PromptPart[] | WorkloadItem): Uint32Array {
  const parts = Array.isArray(prompt) ? (prompt as readonly PromptPart[]) : (prompt as WorkloadItem).prompt;
  const out = new Uint32Array(promptLengthOf(parts));
  let at = 0;
  for (const p of parts) {
    if (p instanceof Uint32Array) out.set(p, at);
    else if (p.length >= CACHE_MIN_TOKENS) out.set(spanTokens(p.seed, p.offset ?? 0, p.length), at);
    else fillSyntheticTokens(out, at, p.seed, p.offset ?? 0, p.length);
    at += partLength(p);
  }
  return out;
}

/** Token budget of the whole-prompt cache (≈64 MiB). */
const PROMPT_CACHE_MAX_TOKENS = 16 * 1024 * 1024;
/** Whole prompts made only of synthetic spans, by span list, least recently used first. */
const promptCache = new Map<string, Uint32Array>();
let promptCacheTokens = 0;

/** Cache key of a prompt made only of synthetic spans, or undefined when it has literal parts. */
function spansKey(parts: readonly PromptPart[]): string | undefined {
  let key = '';
  for (const p of parts) {
    if (p instanceof Uint32Array) return undefined;
    key += `${p.seed}:${p.offset ?? 0}:${p.length}|`;
  }
  return key;
}

/**
 * The token ids of a workload item's prompt as a **shared, read-only** array: a prompt made of
 * synthetic spans is built once and the same array is returned every time it recurs (bounded
 * cache), so the engines can reuse its block hashes too. Callers must not write to it; use
 * {@link materializePrompt} for a private copy.
 * @internal
 */
export function sharedPromptTokens(item: WorkloadItem): Uint32Array {
  const key = spansKey(item.prompt);
  if (key === undefined) return materializePrompt(item);
  const hit = promptCache.get(key);
  if (hit !== undefined) {
    promptCache.delete(key);
    promptCache.set(key, hit);
    return hit;
  }
  const tokens = shareTokens(materializePrompt(item));
  promptCache.set(key, tokens);
  promptCacheTokens += tokens.length;
  for (const [k, v] of promptCache) {
    if (promptCacheTokens <= PROMPT_CACHE_MAX_TOKENS) break;
    promptCache.delete(k);
    promptCacheTokens -= v.length;
  }
  return tokens;
}

/**
 * The first `length` tokens of a prompt, as parts (a prefix view; spans are cut, not copied).
 * @public
 * @category Workloads
 */
export function prefixParts(parts: readonly PromptPart[], length: number): PromptPart[] {
  const out: PromptPart[] = [];
  let left = length;
  for (const p of parts) {
    if (left <= 0) break;
    const n = partLength(p);
    if (n <= left) out.push(p);
    else if (p instanceof Uint32Array) out.push(p.subarray(0, left));
    else out.push({ seed: p.seed, offset: p.offset ?? 0, length: left } satisfies SyntheticSpan);
    left -= Math.min(n, left);
  }
  return out;
}

/**
 * Length of the common token prefix of two prompts.
 * @public
 * @category Workloads
 */
export function commonPrefixLength(a: readonly PromptPart[], b: readonly PromptPart[]): number {
  const ta = materializePrompt(a);
  const tb = materializePrompt(b);
  const n = Math.min(ta.length, tb.length);
  let i = 0;
  while (i < n && ta[i] === tb[i]) i++;
  return i;
}

/**
 * Output tokens an item really generates: `outputLength` when it stops early, else `maxOutputTokens`.
 * @public
 * @category Workloads
 */
export function generatedLength(item: WorkloadItem): number {
  return item.outputLength ?? item.maxOutputTokens;
}
