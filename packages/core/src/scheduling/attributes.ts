import type { Endpoint } from '../endpoints/types.js';

/**
 * A typed key for a request attribute. Data producers write attributes, plugins read them.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface AttributeKey<T> {
  /** Attribute name; producers and consumers declare these names. */
  readonly name: string;
  /** @internal phantom field carrying the value type */
  readonly __type?: T;
}

/**
 * Creates an {@link AttributeKey}. Keys are compared by name, so two copies of a package agree.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export function attributeKey<T>(name: string): AttributeKey<T> {
  return { name };
}

/**
 * Per-request attribute store filled by data producers during one scheduling cycle.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export class AttributeMap {
  readonly #values = new Map<string, unknown>();

  /** Value stored under `key`, or undefined. */
  get<T>(key: AttributeKey<T>): T | undefined {
    return this.#values.get(key.name) as T | undefined;
  }

  /** Stores `value` under `key`, replacing any earlier value. */
  set<T>(key: AttributeKey<T>, value: T): void {
    this.#values.set(key.name, value);
  }

  /** True when `key` has a value. */
  has(key: AttributeKey<unknown>): boolean {
    return this.#values.has(key.name);
  }

  /** Names of the stored attributes. */
  names(): string[] {
    return [...this.#values.keys()];
  }
}

/**
 * How much of a request's prompt one endpoint already holds in its KV cache, in blocks.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface PrefixMatchInfo {
  /** Matched blocks (weighted by cache tier for the precise index, then truncated). */
  readonly matchBlocks: number;
  /** Blocks in the request's prompt (after the match cap). */
  readonly totalBlocks: number;
  /** Block size in tokens. */
  readonly blockSizeTokens: number;
  /** Unweighted count of matched blocks. */
  readonly cachedBlocks: number;
}

/**
 * In-flight load Switchyard itself dispatched, per endpoint. A view rather than a snapshot map, so
 * publishing it costs nothing per endpoint.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface InFlightLoadView {
  /** Requests dispatched to `endpoint` and not completed. */
  requests(endpoint: Endpoint): number;
  /** Tokens of those requests. */
  tokens(endpoint: Endpoint): number;
}

/**
 * Predicted latency of the request on one endpoint.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface LatencyPrediction {
  /** Predicted time to first token, ms. */
  readonly ttftMs: number;
  /** Predicted time per output token, ms. */
  readonly tpotMs: number;
}

/**
 * Key of the prefix match info a plugin reads: the shared `prefix-match-info` attribute, or, when
 * `producerName` is given and not empty, the copy the producer of that instance name writes
 * (`prefix-match-info/<name>`), so approximate and precise producers can run side by side and
 * each consumer can pick one (llm-d's `prefixMatchInfoProducerName`).
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export function prefixMatchAttribute(producerName?: string): AttributeKey<ReadonlyMap<string, PrefixMatchInfo>> {
  return producerName === undefined || producerName === '' ? Attributes.prefixMatch : attributeKey(`${Attributes.prefixMatch.name}/${producerName}`);
}

/**
 * Well-known attributes shared between packages. Producers in `@switchyard/prefix-index` write
 * `prefixMatch` and `tokens`; core's in-flight producer writes `inFlightLoad`.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export const Attributes = {
  /** Per endpoint id: prefix match of this request. */
  prefixMatch: attributeKey<ReadonlyMap<string, PrefixMatchInfo>>('prefix-match-info'),
  /** Token ids of each prompt of the request (real or estimated). */
  tokens: attributeKey<readonly (readonly number[])[]>('tokenized-prompt'),
  /** Number of prompt tokens (real or estimated). */
  promptTokenCount: attributeKey<number>('prompt-token-count'),
  /** Endpoint chosen by an earlier profile of the same cycle (disaggregation: decode pick). */
  peerEndpoint: attributeKey<string>('peer-endpoint'),
  /** Per endpoint id: predicted TTFT and TPOT in ms for this request. */
  predictedLatency: attributeKey<ReadonlyMap<string, LatencyPrediction>>('predicted-latency'),
  /** In-flight requests and tokens per endpoint (written by `inflight-load-producer`). */
  inFlightLoad: attributeKey<InFlightLoadView>('inflight-load'),
  /** Endpoint id the request's session is pinned to (written by `session-id-producer`). */
  sessionEndpoint: attributeKey<string>('session-endpoint'),
  /**
   * Headers to set on the response to the client (e.g. `x-session-token`). Lifecycle hooks add
   * entries in `preRequest`; the picker copies them to `Decision.responseHeaders`.
   */
  responseHeaders: attributeKey<Record<string, string>>('response-headers'),
  /**
   * Metadata the proxy attached to the request, per namespace (ext_proc `metadata_context`
   * namespaces such as `llm-d.routing`, as plain JSON); set only when the adapter passed some.
   */
  requestMetadata: attributeKey<RequestMetadata>('request-metadata'),
} as const;

/**
 * Request metadata by namespace: each namespace's fields as plain JSON values (an ext_proc
 * `filter_metadata` Struct converted field by field).
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export type RequestMetadata = Readonly<Record<string, Readonly<Record<string, unknown>>>>;
