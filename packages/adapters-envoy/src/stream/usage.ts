import { StringDecoder } from 'node:string_decoder';
import type { Usage } from '@switchyard/core';

type Json = Record<string, unknown>;

/** Longest unfinished SSE line kept between chunks; usage events are far shorter. */
const MAX_LINE_CHARS = 1 << 20;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** Token counts seen so far; fields stay undefined until some event reports them. */
interface PartialUsage {
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
}

function mergeUsageObject(into: PartialUsage, usage: unknown): boolean {
  if (!isObject(usage)) return false;
  // OpenAI chat/completions: prompt_tokens / completion_tokens; Responses and Anthropic: input/output.
  const prompt = num(usage.prompt_tokens) ?? num(usage.input_tokens);
  const completion = num(usage.completion_tokens) ?? num(usage.output_tokens);
  const details = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : isObject(usage.input_tokens_details) ? usage.input_tokens_details : undefined;
  const cached = num(details?.cached_tokens) ?? num(usage.cache_read_input_tokens);
  if (prompt !== undefined) into.promptTokens = prompt;
  if (completion !== undefined) into.completionTokens = completion;
  if (cached !== undefined) into.cachedTokens = cached;
  return prompt !== undefined || completion !== undefined;
}

/**
 * Merges the usage carried by one response object (a JSON body or one SSE event) into `into`.
 * Understands OpenAI chat/completions (`usage`), the Responses API (`response.completed` →
 * `response.usage`) and Anthropic messages (`message_start` → `message.usage`, then `usage`).
 * Returns true when the object reported any token count.
 */
function mergeFrom(into: PartialUsage, obj: unknown): boolean {
  if (!isObject(obj)) return false;
  let found = mergeUsageObject(into, obj.usage);
  if (isObject(obj.response)) found = mergeUsageObject(into, obj.response.usage) || found;
  if (isObject(obj.message)) found = mergeUsageObject(into, obj.message.usage) || found;
  return found;
}

function toUsage(p: PartialUsage): Usage | undefined {
  if (p.promptTokens === undefined && p.completionTokens === undefined) return undefined;
  const base = { promptTokens: p.promptTokens ?? 0, completionTokens: p.completionTokens ?? 0 };
  return p.cachedTokens === undefined ? base : { ...base, cachedTokens: p.cachedTokens };
}

/**
 * Reads token usage from a parsed non-streaming response body.
 * @public
 */
export function readUsage(body: unknown): Usage | undefined {
  const p: PartialUsage = {};
  mergeFrom(p, body);
  return toUsage(p);
}

/**
 * Reads usage from a Server-Sent Events body fed chunk by chunk, without holding the body: it
 * keeps only the unfinished last line. Only `data:` lines that mention usage are JSON-parsed, so
 * token-by-token streams cost a substring search per line.
 * @public
 */
export class SseUsageScanner {
  readonly #decoder = new StringDecoder('utf8');
  #carry = '';
  #skipping = false;
  readonly #usage: PartialUsage = {};
  #found = false;

  /** Feeds the next chunk of the body. */
  push(chunk: Uint8Array): void {
    const text = this.#carry + this.#decoder.write(chunk);
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      if (this.#skipping) this.#skipping = false;
      else this.#line(text, start, nl);
      start = nl + 1;
    }
    this.#carry = text.slice(start);
    if (this.#carry.length > MAX_LINE_CHARS) {
      // A line this long is not a usage event; drop it rather than hold it.
      this.#carry = '';
      this.#skipping = true;
    }
  }

  /** Flushes the last line (a stream may end without a trailing newline). */
  end(): void {
    const rest = this.#carry + this.#decoder.end();
    this.#carry = '';
    if (rest.length > 0 && !this.#skipping) this.#line(rest, 0, rest.length);
    this.#skipping = false;
  }

  /** Usage seen so far, or undefined when the stream reported none. */
  get usage(): Usage | undefined {
    return this.#found ? toUsage(this.#usage) : undefined;
  }

  #line(text: string, start: number, end: number): void {
    if (!text.startsWith('data:', start)) return;
    const line = text.slice(start + 5, end).trim();
    if (line === '[DONE]' || !line.includes('_tokens')) return;
    try {
      if (mergeFrom(this.#usage, JSON.parse(line))) this.#found = true;
    } catch {
      // A malformed event is the model server's problem; the bytes pass through untouched.
    }
  }
}
