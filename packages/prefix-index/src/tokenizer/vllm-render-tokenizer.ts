import { createHash } from 'node:crypto';
import { SwitchyardError, systemClock, type Clock, type InferenceRequest } from '@switchyard/core';
import { LRUCache } from 'lru-cache';
import type { Tokenizer } from './types.js';

/**
 * Options of {@link VllmRenderTokenizer}.
 * @public
 * @category Tokenizer
 */
export interface VllmRenderTokenizerOptions {
  /** Base URL of a vLLM server or render sidecar. Default `http://localhost:8000`. */
  readonly url?: string;
  /**
   * `render` (`POST /v1/chat/completions/render`, `/v1/completions/render`; newer vLLM, also the
   * CPU-only `vllm launch render` sidecar) or `tokenize` (`POST /tokenize`). Default `render`.
   */
  readonly api?: 'render' | 'tokenize';
  /** Per-request timeout. Default 5000 ms. */
  readonly timeoutMs?: number;
  /** Cached prompts (LRU). Default 1024; 0 disables the cache. */
  readonly cacheSize?: number;
  /** Model to send instead of the request's target model. */
  readonly modelName?: string;
  /** Extra headers (e.g. authorization). */
  readonly headers?: Readonly<Record<string, string>>;
  /** `fetch` implementation (default: the global one). */
  readonly fetch?: typeof fetch;
  /** Time source for timeouts. */
  readonly clock?: Clock;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isTokenArray(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((t) => typeof t === 'number' && Number.isInteger(t) && t >= 0);
}

/**
 * Reads token ids from a render or tokenize answer (single prompt or a list of prompts).
 * @category Tokenizer
 */
export function readTokenIds(body: unknown): number[][] | undefined {
  const one = (v: unknown): number[] | undefined => {
    if (!isObject(v)) return undefined;
    for (const field of ['token_ids', 'prompt_token_ids', 'tokens']) {
      const t = v[field];
      if (isTokenArray(t)) return t;
    }
    return undefined;
  };
  if (Array.isArray(body)) {
    const out: number[][] = [];
    for (const item of body) {
      const t = one(item);
      if (t === undefined) return undefined;
      out.push(t);
    }
    return out;
  }
  if (isObject(body) && Array.isArray(body['token_ids']) && body['token_ids'].every(isTokenArray)) return body['token_ids'];
  const t = one(body);
  return t === undefined ? undefined : [t];
}

/**
 * Tokenizes through a vLLM server: its `render` endpoints (chat template applied server side, so
 * token ids equal what the engine will see) or `/tokenize`. Results are cached by model and
 * request body (LRU), requests time out, and the caller's `AbortSignal` cancels them.
 * @public
 * @category Tokenizer
 */
export class VllmRenderTokenizer implements Tokenizer {
  /** `vllm-render` or `vllm-tokenize`. */
  readonly name: string;
  readonly #url: string;
  readonly #api: 'render' | 'tokenize';
  readonly #timeoutMs: number;
  /** Token ids by prompt digest; undefined when `cacheSize` is 0 (lru-cache needs at least one entry). */
  readonly #cache: LRUCache<string, number[][]> | undefined;
  readonly #options: VllmRenderTokenizerOptions;
  readonly #fetch: typeof fetch;
  readonly #clock: Clock;

  constructor(options: VllmRenderTokenizerOptions = {}) {
    this.#options = options;
    this.#url = (options.url ?? 'http://localhost:8000').replace(/\/+$/, '');
    this.#api = options.api ?? 'render';
    this.name = `vllm-${this.#api}`;
    this.#timeoutMs = options.timeoutMs ?? 5000;
    const cacheSize = Math.max(0, Math.floor(options.cacheSize ?? 1024));
    this.#cache = cacheSize === 0 ? undefined : new LRUCache({ max: cacheSize });
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#clock = options.clock ?? systemClock;
  }

  /** Cached entries. */
  get cacheSize(): number {
    return this.#cache?.size ?? 0;
  }

  /**
   * Token ids of the request's prompts.
   * @throws SwitchyardError `UPSTREAM_TIMEOUT` on timeout, `UPSTREAM_UNAVAILABLE` on HTTP or shape errors; the signal's reason when aborted
   */
  async tokenize(request: InferenceRequest, model: string, signal?: AbortSignal): Promise<number[][]> {
    const target = this.#options.modelName ?? model;
    const prompt = request.prompt;
    if (prompt.kind === 'tokens') return prompt.tokenIds.map((t) => [...t]);
    if (prompt.kind === 'none') return [];
    const key = createHash('sha1').update(`${this.#api}\0${target}\0${request.api}\0`).update(request.rawBody).digest('base64');
    const cached = this.#cache?.get(key);
    if (cached !== undefined) return cached;
    let result: number[][];
    if (prompt.kind === 'chat') {
      const body = { ...(request.body ?? {}), model: target, messages: request.body?.['messages'] ?? prompt.messages };
      const path = this.#api === 'render' ? '/v1/chat/completions/render' : '/tokenize';
      result = await this.#post(path, this.#api === 'render' ? body : { model: target, messages: body.messages, ...(request.body?.['tools'] === undefined ? {} : { tools: request.body['tools'] }) }, signal);
    } else if (this.#api === 'render') {
      result = await this.#post('/v1/completions/render', { ...(request.body ?? {}), model: target, prompt: prompt.texts.length === 1 ? prompt.texts[0] : prompt.texts }, signal);
    } else {
      result = [];
      for (const text of prompt.texts) result.push(...(await this.#post('/tokenize', { model: target, prompt: text }, signal)));
    }
    this.#cache?.set(key, result);
    return result;
  }

  async #post(path: string, body: unknown, signal: AbortSignal | undefined): Promise<number[][]> {
    signal?.throwIfAborted();
    const timeout = new AbortController();
    const timer = this.#clock.setTimeout(() => {
      timeout.abort(new SwitchyardError('UPSTREAM_TIMEOUT', `tokenizer: POST ${this.#url}${path} timed out after ${this.#timeoutMs} ms`));
    }, this.#timeoutMs);
    const combined = signal === undefined ? timeout.signal : AbortSignal.any([signal, timeout.signal]);
    try {
      const res = await this.#fetch(`${this.#url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.#options.headers },
        body: JSON.stringify(body),
        signal: combined,
      });
      if (!res.ok) throw new SwitchyardError('UPSTREAM_UNAVAILABLE', `tokenizer: POST ${this.#url}${path} returned HTTP ${res.status}`);
      const json: unknown = await res.json();
      const ids = readTokenIds(json);
      if (ids === undefined) throw new SwitchyardError('UPSTREAM_UNAVAILABLE', `tokenizer: POST ${this.#url}${path} answered without token_ids`);
      return ids;
    } catch (err) {
      if (combined.aborted) throw combined.reason as Error;
      throw err;
    } finally {
      this.#clock.clearTimeout(timer);
    }
  }
}
