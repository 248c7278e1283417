import { durationSchema, SwitchyardError } from '@switchyard/core';
import { z } from 'zod';

/** An llm-d settings object this package accepts by name but does not interpret. */
const ignoredObject = z.looseObject({});

/**
 * llm-d's `vllm` block of `token-producer`. `url`, `timeout` and `mmTimeout` are used; the
 * rendering-mode switches are accepted and ignored (chat and completions always go through
 * vLLM's render endpoints); `endpointDiscovery` and the TLS settings are accepted but not
 * supported (the producer logs a warning and uses `url` over plain `fetch`).
 */
const vllmShape = z.strictObject({
  /** Base URL of the render endpoint. */
  url: z.string().optional(),
  /** Completions timeout (Go duration or seconds). */
  timeout: durationSchema.optional(),
  /** Chat timeout budget; raises the single timeout used here when larger. */
  mmTimeout: durationSchema.optional(),
  /** Ignored. */
  messagesRenderMode: z.enum(['auto', 'native', 'legacy']).optional(),
  /** Ignored. */
  responsesRenderMode: z.enum(['auto', 'native', 'legacy']).optional(),
  /** Ignored. */
  prefillOnly: z.boolean().optional(),
  /** Ignored. */
  omitMMKwargs: z.boolean().optional(),
  /** Ignored. */
  mergeAnthropicInlineSystem: z.boolean().optional(),
  /** Not supported (warning): `url` is used. */
  endpointDiscovery: ignoredObject.optional(),
  /** Not supported (warning). */
  caCertPath: z.string().optional(),
  /** Not supported (warning). */
  clientCertPath: z.string().optional(),
  /** Not supported (warning). */
  clientKeyPath: z.string().optional(),
  /** Not supported (warning). */
  insecureSkipVerify: z.boolean().optional(),
});

/**
 * Parameters of `token-producer`, decoded strictly. llm-d's shape (`modelName`, `vllm: {url,
 * timeout, mmTimeout, ...}`, `estimate: {...}`) and this package's flat one (`backend`, `url`,
 * `api`, `timeout`, `cacheSize`, `tokenizerPath`, ...) are both accepted; when a setting is given
 * both ways the flat one wins. The backend is `backend` when set, else llm-d's rule: `vllm` or
 * `modelName` selects vLLM, otherwise the estimate. `estimate`'s multimodal tuning is accepted and
 * ignored (images are not estimated); llm-d's deprecated `udsTokenizerConfig` is rejected.
 * @public
 * @category Plugins
 */
export const tokenProducerParameters = z.strictObject({
  /** `estimate` (4-byte pseudo-tokens, llm-d's default), `vllm` (render/tokenize HTTP), `local` (tokenizer.json), `custom` (the tokenizer passed to `loadPrefixIndexPlugins`). */
  backend: z.enum(['estimate', 'vllm', 'local', 'custom']).optional(),
  /** vLLM base URL (default `http://localhost:8000`). */
  url: z.string().optional(),
  /** vLLM API: `render` or `tokenize`. */
  api: z.enum(['render', 'tokenize']).default('render'),
  /** Request timeout (duration or seconds; default 5 s). */
  timeout: durationSchema.optional(),
  /** Model sent to the tokenizer instead of the request's target model; alone, it selects vLLM. */
  modelName: z.string().optional(),
  /** Cached prompts of the vLLM backend. */
  cacheSize: z.number().int().min(0).default(1024),
  /** `tokenizer.json` path (local backend). */
  tokenizerPath: z.string().optional(),
  /** `tokenizer_config.json` path (local backend). */
  tokenizerConfigPath: z.string().optional(),
  /** llm-d's vLLM render settings. */
  vllm: vllmShape.optional(),
  /** llm-d's estimate backend (multimodal placeholder tuning: accepted, ignored). */
  estimate: ignoredObject.optional(),
  /** llm-d's deprecated gRPC-over-UDS tokenizer: not supported (config error). */
  udsTokenizerConfig: ignoredObject.optional(),
});

/**
 * Parsed parameters of `token-producer`.
 * @public
 * @category Plugins
 */
export type TokenProducerParams = z.output<typeof tokenProducerParameters>;

/**
 * What `token-producer` runs with once the two parameter shapes are merged.
 * @internal
 */
export interface ResolvedTokenParameters {
  readonly backend: 'estimate' | 'vllm' | 'local' | 'custom';
  readonly url: string;
  readonly timeoutMs: number;
  /** Accepted settings that have no effect here and deserve a warning. */
  readonly unsupported: readonly string[];
}

const TLS_KEYS = ['caCertPath', 'clientCertPath', 'clientKeyPath', 'insecureSkipVerify'] as const;

/**
 * Merges llm-d's and the flat parameter shapes and picks the backend.
 * @throws SwitchyardError `CONFIG_INVALID` for `udsTokenizerConfig`, for `vllm` with `estimate`,
 * and for `vllm` settings with a non-vLLM `backend`
 * @internal
 */
export function resolveTokenParameters(p: TokenProducerParams): ResolvedTokenParameters {
  if (p.udsTokenizerConfig !== undefined) {
    throw new SwitchyardError('CONFIG_INVALID', 'udsTokenizerConfig (llm-d\'s deprecated gRPC-over-UDS tokenizer) is not supported; use vllm: {url} or backend: local');
  }
  if (p.vllm !== undefined && p.estimate !== undefined) throw new SwitchyardError('CONFIG_INVALID', 'vllm and estimate select different backends; give one');
  const backend = p.backend ?? (p.vllm !== undefined ? 'vllm' : p.estimate !== undefined ? 'estimate' : p.modelName !== undefined ? 'vllm' : 'estimate');
  if (p.vllm !== undefined && backend !== 'vllm') throw new SwitchyardError('CONFIG_INVALID', `vllm settings given with backend "${backend}"`);
  const v = p.vllm;
  const unsupported: string[] = [];
  if (v?.endpointDiscovery !== undefined) unsupported.push('vllm.endpointDiscovery (render requests go to vllm.url)');
  for (const k of TLS_KEYS) if (v?.[k] !== undefined) unsupported.push(`vllm.${k} (TLS settings are not applied; use a CA the Node.js process trusts)`);
  const timeout = p.timeout ?? v?.timeout ?? 5000;
  return {
    backend,
    url: p.url ?? v?.url ?? 'http://localhost:8000',
    // One timeout serves every request here; llm-d gives chat max(timeout, mmTimeout).
    timeoutMs: Math.max(timeout, v?.mmTimeout ?? 0),
    unsupported,
  };
}
