import { Attributes, definePlugin, SwitchyardError, type CycleContext, type PluginDefinition, type PluginFactoryContext, type DataProducer, type Endpoint, type SchedulingRequest } from '@switchyard/core';
import { encodePromptBytes, pseudoTokenCount, tokensToBytes } from '../hashing/prompt-bytes.js';
import { createLocalTokenizer } from '../tokenizer/local-tokenizer.js';
import type { Tokenizer } from '../tokenizer/types.js';
import { VllmRenderTokenizer } from '../tokenizer/vllm-render-tokenizer.js';
import { PrefixAttributes } from './attributes.js';
import { promptBytes } from '../api/records.js';
import type { PrefixPluginEnv } from './env.js';
import { resolveTokenParameters, tokenProducerParameters, type TokenProducerParams } from './token-parameters.js';

/**
 * Type name of the token producer. @public
 * @category Plugins
 */
export const TOKEN_PRODUCER = 'token-producer';

/** What a token producer writes. */
const TOKEN_ATTRIBUTES: readonly string[] = [Attributes.tokens.name, Attributes.promptTokenCount.name, PrefixAttributes.promptBytes.name];

/**
 * The token producer: writes `tokenized-prompt` (real token ids, when a tokenizer produced them or
 * the prompt was token ids), `prompt-token-count`, and `prefix-prompt-bytes` (uint32 LE bytes the
 * approximate index hashes). With the `estimate` backend no token ids are written: pseudo-tokens
 * are not token ids, and the precise index must not pretend they are. A tokenizer failure falls
 * back to the estimate for that request (counted and logged once).
 * @public
 * @category Plugins
 */
export class TokenProducer implements DataProducer {
  /** `token-producer`. */
  readonly type = TOKEN_PRODUCER;
  /** Instance name. */
  readonly name: string;
  /** Attributes written. */
  readonly produces = TOKEN_ATTRIBUTES;
  /** Nothing read. */
  readonly consumes: readonly string[] = [];
  readonly #tokenizer: Promise<Tokenizer> | undefined;
  readonly #env: Pick<PrefixPluginEnv, 'metrics'>;
  readonly #ownsTokenizer: boolean;

  /**
   * @param tokenizer - real tokenizer, or undefined for the estimate backend
   * @param ownsTokenizer - close the tokenizer with the producer (true for the ones the config
   *   created; a tokenizer passed in by the application stays the application's)
   */
  constructor(name: string, tokenizer: Tokenizer | Promise<Tokenizer> | undefined, env: Pick<PrefixPluginEnv, 'metrics'>, ownsTokenizer = false) {
    this.name = name;
    this.#ownsTokenizer = ownsTokenizer;
    this.#tokenizer = tokenizer === undefined ? undefined : Promise.resolve(tokenizer);
    // A tokenizer that fails to load is reported per request, not as an unhandled rejection.
    this.#tokenizer?.catch(() => undefined);
    this.#env = env;
  }

  /**
   * Writes the attributes for one request. Synchronous unless a tokenizer has to be awaited, so
   * the estimate backend (the default) costs the scheduling cycle no microtask hop.
   */
  produce(_ctx: CycleContext, request: SchedulingRequest, _endpoints: readonly Endpoint[], signal?: AbortSignal): void | Promise<void> {
    const prompt = request.request.prompt;
    if (prompt.kind === 'tokens') {
      this.#setTokens(request, prompt.tokenIds);
      return;
    }
    if (this.#tokenizer !== undefined && prompt.kind !== 'none') return this.#tokenize(request, this.#tokenizer, signal);
    this.#setEstimate(request);
  }

  /** Closes the tokenizer when this producer created it. */
  async close(): Promise<void> {
    if (!this.#ownsTokenizer) return;
    const tokenizer = await this.#tokenizer?.catch(() => undefined);
    await tokenizer?.close?.();
  }

  async #tokenize(request: SchedulingRequest, pending: Promise<Tokenizer>, signal: AbortSignal | undefined): Promise<void> {
    try {
      const tokenizer = await pending;
      this.#setTokens(request, await tokenizer.tokenize(request.request, request.targetModel, signal));
    } catch (err) {
      if (signal?.aborted === true) throw err;
      this.#env.metrics.error('tokenizer', this.name, `tokenizer failed, using the byte estimate: ${err instanceof Error ? err.message : String(err)}`);
      this.#setEstimate(request);
    }
  }

  #setEstimate(request: SchedulingRequest): void {
    const prompts = encodePromptBytes(request.request.prompt);
    request.attributes.set(PrefixAttributes.promptBytes, promptBytes(prompts, true));
    request.attributes.set(Attributes.promptTokenCount, pseudoTokenCount(prompts));
  }

  #setTokens(request: SchedulingRequest, tokens: readonly (readonly number[])[]): void {
    let count = 0;
    for (const t of tokens) count += t.length;
    request.attributes.set(Attributes.tokens, tokens);
    request.attributes.set(Attributes.promptTokenCount, count);
    request.attributes.set(PrefixAttributes.promptBytes, promptBytes(tokens.map((t) => tokensToBytes(t)), false));
  }
}

/** llm-d's previous type name of `token-producer`. */
const LEGACY_TOKEN_PRODUCER = 'tokenizer';

/**
 * Plugin definition of `token-producer` (default producer of the token attributes).
 * @public
 * @category Plugins
 */
export function tokenProducerDefinition(env: PrefixPluginEnv): PluginDefinition<TokenProducerParams> {
  return definePlugin({
    type: TOKEN_PRODUCER,
    description: 'Token ids (vLLM render, local tokenizer.json, custom) or the 4-byte estimate for prefix hashing.',
    parameters: tokenProducerParameters,
    produces: TOKEN_ATTRIBUTES,
    defaultProducerFor: TOKEN_ATTRIBUTES,
    create: (p, ctx) => createTokenProducer(p, ctx, env),
  });
}

/**
 * `tokenizer`: llm-d's previous name of `token-producer`, same parameters and behaviour, kept so
 * that older configs load. (Not a default producer: `token-producer` is.)
 * @public
 * @category Plugins
 */
export function legacyTokenizerDefinition(env: PrefixPluginEnv): PluginDefinition<TokenProducerParams> {
  return definePlugin({
    type: LEGACY_TOKEN_PRODUCER,
    description: 'Deprecated llm-d name of token-producer.',
    parameters: tokenProducerParameters,
    produces: TOKEN_ATTRIBUTES,
    create: (p, ctx) => createTokenProducer(p, ctx, env),
  });
}

function createTokenProducer(p: TokenProducerParams, ctx: PluginFactoryContext, env: PrefixPluginEnv): TokenProducer {
  const r = resolveTokenParameters(p);
  for (const what of r.unsupported) env.logger.warn(`${ctx.name}: ${what}`);
  let tokenizer: Tokenizer | Promise<Tokenizer> | undefined;
  if (r.backend === 'vllm') {
    tokenizer = new VllmRenderTokenizer({ url: r.url, api: p.api, timeoutMs: r.timeoutMs, cacheSize: p.cacheSize, clock: ctx.clock, ...(p.modelName === undefined ? {} : { modelName: p.modelName }) });
  } else if (r.backend === 'local') {
    if (p.tokenizerPath === undefined) throw new SwitchyardError('CONFIG_INVALID', 'token-producer: parameters.tokenizerPath is required with backend "local"');
    tokenizer = createLocalTokenizer({ tokenizerJson: p.tokenizerPath, ...(p.tokenizerConfigPath === undefined ? {} : { tokenizerConfig: p.tokenizerConfigPath }) });
  } else if (r.backend === 'custom') {
    if (env.tokenizer === undefined) throw new SwitchyardError('CONFIG_INVALID', 'token-producer: backend "custom" needs a tokenizer passed to loadPrefixIndexPlugins({ tokenizer })');
    tokenizer = env.tokenizer;
  }
  return new TokenProducer(ctx.name, tokenizer, env, r.backend !== 'custom');
}
