import type { InferenceRequest } from '@switchyard/core';

/**
 * Turns a request's prompt into real token ids, one array per prompt (a completions request may
 * carry several prompts; a chat is one prompt after its chat template). Implementations must
 * honour `signal` and may throw; the token producer then falls back to the byte estimate.
 * @public
 * @category Tokenizer
 */
export interface Tokenizer {
  /** Short name for logs and metrics (`vllm-render`, `local`, `function`...). */
  readonly name: string;
  /** Token ids per prompt. */
  tokenize(request: InferenceRequest, model: string, signal?: AbortSignal): Promise<number[][]>;
  /** Releases resources (sockets, caches). */
  close?(): Promise<void>;
}

/**
 * A user function used as a {@link Tokenizer}.
 * @public
 * @category Tokenizer
 */
export type TokenizeFunction = (request: InferenceRequest, model: string, signal?: AbortSignal) => Promise<number[][]> | number[][];

/**
 * Wraps a function as a {@link Tokenizer}.
 * @example
 * ```ts
 * const tokenizer = functionTokenizer(async (req) => [myTokenizer.encode(JSON.stringify(req.prompt))]);
 * ```
 * @public
 * @category Tokenizer
 */
export function functionTokenizer(fn: TokenizeFunction, name = 'function'): Tokenizer {
  return {
    name,
    tokenize: async (request, model, signal) => fn(request, model, signal),
  };
}
