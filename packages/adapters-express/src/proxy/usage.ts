import type { Usage } from '@switchyard/core';
import { FALLBACK, scanUsage } from './usage-scan.js';

/**
 * Token usage as it appears in model-server responses. OpenAI-compatible servers (vLLM, SGLang)
 * send `prompt_tokens`/`completion_tokens` with `prompt_tokens_details.cached_tokens`; Anthropic
 * Messages sends `input_tokens`/`output_tokens` with `cache_read_input_tokens`.
 */
interface WireUsage {
  readonly prompt_tokens?: unknown;
  readonly completion_tokens?: unknown;
  readonly prompt_tokens_details?: { readonly cached_tokens?: unknown } | null;
  readonly input_tokens?: unknown;
  readonly output_tokens?: unknown;
  readonly cache_read_input_tokens?: unknown;
}

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

/**
 * Converts a wire `usage` object (OpenAI or Anthropic shape) to a core `Usage`; undefined when it
 * carries no token counts at all.
 * @public
 */
export function usageFromWire(wire: unknown): Usage | undefined {
  if (typeof wire !== 'object' || wire === null) return undefined;
  const u = wire as WireUsage;
  const prompt = count(u.prompt_tokens) ?? count(u.input_tokens);
  const completion = count(u.completion_tokens) ?? count(u.output_tokens);
  if (prompt === undefined && completion === undefined) return undefined;
  const cached = count(u.prompt_tokens_details?.cached_tokens) ?? count(u.cache_read_input_tokens);
  const usage: { promptTokens: number; completionTokens: number; cachedTokens?: number } = {
    promptTokens: prompt ?? 0,
    completionTokens: completion ?? 0,
  };
  if (cached !== undefined) usage.cachedTokens = cached;
  return usage;
}

/**
 * Combines usage reported in pieces (Anthropic streams send input tokens first and output tokens
 * last): each field keeps its largest value.
 * @public
 */
export function mergeUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const merged: { promptTokens: number; completionTokens: number; cachedTokens?: number } = {
    promptTokens: Math.max(a.promptTokens, b.promptTokens),
    completionTokens: Math.max(a.completionTokens, b.completionTokens),
  };
  const cached = Math.max(a.cachedTokens ?? -1, b.cachedTokens ?? -1);
  if (cached >= 0) merged.cachedTokens = cached;
  return merged;
}

/**
 * Finds the last top-level-looking `"usage": { ... }` object in JSON text and parses only that
 * object, so large bodies (embeddings, long completions) are never parsed in full. Escaped
 * occurrences inside strings (`\"usage\"`) are skipped.
 * @param text - JSON text (latin1-decoded bytes are fine: only ASCII is inspected)
 * @public
 */
export function extractUsage(text: string): Usage | undefined {
  let at = text.lastIndexOf('"usage"');
  while (at > 0 && text.charCodeAt(at - 1) === 0x5c /* \ */) at = text.lastIndexOf('"usage"', at - 1);
  if (at < 0) return undefined;
  let i = at + 7;
  while (i < text.length && (text[i] === ' ' || text[i] === ':' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  if (text[i] !== '{') return undefined;
  // usage objects hold only numbers and nested objects, so counting braces finds the end.
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) {
      try {
        return usageFromWire(JSON.parse(text.slice(i, j + 1)));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const USAGE_KEY = Buffer.from('"usage"');

/**
 * {@link extractUsage} on bytes: finds the last unescaped `"usage": {...}` with native byte search
 * and reads only that object (usually without `JSON.parse`), so a JSON body is never converted to
 * a string as a whole.
 * @public
 */
export function extractUsageFromBytes(buf: Buffer): Usage | undefined {
  let at = buf.lastIndexOf(USAGE_KEY);
  while (at > 0 && buf[at - 1] === 0x5c /* \ */) at = buf.lastIndexOf(USAGE_KEY, at - 1);
  if (at < 0) return undefined;
  let i = at + USAGE_KEY.length;
  while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x3a || buf[i] === 0x09 || buf[i] === 0x0a || buf[i] === 0x0d)) i++;
  if (buf[i] !== 0x7b) return undefined;
  const scanned = scanUsage(buf, i);
  if (scanned !== FALLBACK) return scanned;
  let depth = 0;
  for (let j = i; j < buf.length; j++) {
    const c = buf[j];
    if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) {
      try {
        return usageFromWire(JSON.parse(buf.toString('latin1', i, j + 1)));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
