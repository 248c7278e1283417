import {
  Attributes,
  definePlugin,
  systemClock,
  type Clock,
  type CycleContext,
  type DataProducer,
  type Endpoint,
  type EndpointPool,
  type PluginDefinition,
  type RequestLifecycle,
  type SchedulingRequest,
  type SchedulingResult,
} from '@switchyard/core';
import type { PrefixHasher } from '../hashing/prefix-hasher.js';
import type { PrefixIndexMetrics } from '../metrics/prefix-metrics.js';
import { PrefixIndexerRecorder } from '../metrics/indexer-recorder.js';
import { PreciseKvIndex } from '../precise/precise-index.js';
import { KvEventSubscriber, type KvEventSubscriberOptions } from '../subscriber/kv-event-subscriber.js';
import type { ZmqModule } from '../subscriber/zmq-types.js';
import { blockKeysAttribute, matchInfoAttribute } from './attributes.js';
import type { PrefixPluginEnv } from './env.js';
import { publishMatchInfo } from './match-info.js';
import { preciseProducerParameters, resolvePreciseParameters, type PreciseProducerParams } from './precise-parameters.js';

/**
 * Type name of the precise producer. @public
 * @category Plugins
 */
export const PRECISE_PREFIX_PRODUCER = 'precise-prefix-cache-producer';

/**
 * Options of {@link PrecisePrefixProducer}.
 * @public
 * @category Plugins
 */
export interface PrecisePrefixProducerOptions {
  /** Instance name (default `precise-prefix-cache-producer`). */
  readonly name?: string | undefined;
  /** Block hasher. */
  readonly hasher: PrefixHasher;
  /** Pool: unknown endpoints' events are dropped, departed ones purged, new ones subscribed. */
  readonly pool?: EndpointPool | undefined;
  /** Index to use (default: a new {@link PreciseKvIndex}). */
  readonly index?: PreciseKvIndex | undefined;
  /** Request-side block size (default 16). */
  readonly blockSizeTokens?: number | undefined;
  /** Base model name. */
  readonly modelName?: string | undefined;
  /** Tier weights. */
  readonly tierWeights?: Readonly<Record<string, number>> | undefined;
  /** Weight of media missing from `tierWeights` (default 0.8). */
  readonly otherTierWeight?: number | undefined;
  /** Speculative indexing (default false). */
  readonly speculativeIndexing?: boolean | undefined;
  /** Speculative TTL in ms (default 2000). */
  readonly speculativeTtlMs?: number | undefined;
  /** Cap on matched blocks (0 = none). */
  readonly maxPrefixBlocksToMatch?: number | undefined;
  /** Subscriber settings; `false` disables the ZMQ subscription (push API only). */
  readonly subscribe?: false | Omit<KvEventSubscriberOptions, 'sink' | 'pool' | 'metrics' | 'clock' | 'zeromq'> | undefined;
  /** zeromq module override. */
  readonly zeromq?: ZmqModule | undefined;
  /** Metrics. */
  readonly metrics?: PrefixIndexMetrics | undefined;
  /** Time source. */
  readonly clock?: Clock | undefined;
}

/**
 * The precise prefix producer: matches the request's real token ids against a
 * {@link PreciseKvIndex} fed by the endpoints' KV events (ZMQ subscription, or the push API via
 * `producer.index.ingest`). Needs `tokenized-prompt` from a real tokenizer; with the estimate
 * backend it publishes nothing and says so once.
 * @public
 * @category Plugins
 */
export class PrecisePrefixProducer implements DataProducer, RequestLifecycle {
  /** `precise-prefix-cache-producer`. */
  readonly type: string = PRECISE_PREFIX_PRODUCER;
  /** Instance name. */
  readonly name: string;
  /** Attributes written. */
  readonly produces: readonly string[];
  /** Attributes read. */
  readonly consumes = [Attributes.tokens.name];
  /** The index (push batches with `index.ingest(endpointId, batch)`). */
  readonly index: PreciseKvIndex;
  /** Resolves once the ZMQ subscriber is running (or rejects when zeromq is missing). */
  readonly subscriber: Promise<KvEventSubscriber | undefined>;
  readonly #o: PrecisePrefixProducerOptions;
  readonly #keysAttr;
  /** This producer's `llm_d_epp_prefix_indexer_*` series, resolved on first use. */
  #indexer: PrefixIndexerRecorder | undefined;
  readonly #onRemoved: (e: Endpoint) => void;
  readonly #clock: Clock;

  constructor(options: PrecisePrefixProducerOptions) {
    this.#o = options;
    this.name = options.name ?? PRECISE_PREFIX_PRODUCER;
    this.produces = [Attributes.prefixMatch.name, matchInfoAttribute(this.name).name];
    this.#keysAttr = blockKeysAttribute(this.name);
    const pool = options.pool;
    const clock = options.clock ?? systemClock;
    this.#clock = clock;
    this.index =
      options.index ??
      new PreciseKvIndex({
        hasher: options.hasher,
        blockSizeTokens: options.blockSizeTokens ?? 16,
        clock,
        speculativeTtlMs: options.speculativeTtlMs ?? 2000,
        ...(options.modelName === undefined ? {} : { modelName: options.modelName }),
        ...(options.tierWeights === undefined ? {} : { tierWeights: options.tierWeights }),
        ...(options.otherTierWeight === undefined ? {} : { otherTierWeight: options.otherTierWeight }),
        ...(pool === undefined ? {} : { isKnownEndpoint: (id: string) => pool.get(id) !== undefined }),
        ...(options.metrics === undefined ? {} : { observer: options.metrics.observer }),
      });
    if (options.metrics !== undefined) options.metrics.trackPreciseIndex(this.index);
    this.#onRemoved = (e) => {
      this.index.removeEndpoint(e.id);
    };
    pool?.on('removed', this.#onRemoved);
    const sub = options.subscribe;
    if (sub === false || pool === undefined) {
      this.subscriber = Promise.resolve(undefined);
    } else {
      this.subscriber = KvEventSubscriber.create({
        ...(sub ?? {}),
        sink: this.index,
        pool,
        clock,
        ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
        ...(options.zeromq === undefined ? {} : { zeromq: options.zeromq }),
      });
      this.subscriber.catch((err: unknown) => {
        options.metrics?.error('subscriber', this.name, err instanceof Error ? err.message : String(err));
      });
    }
  }

  /** Matches the request's token ids and publishes match info. */
  produce(_ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): void {
    const prompt = request.request.prompt;
    const tokens = request.attributes.get(Attributes.tokens) ?? (prompt.kind === 'tokens' ? prompt.tokenIds : undefined);
    if (tokens === undefined) {
      if (prompt.kind !== 'none') {
        this.#o.metrics?.error('no-token-ids', this.name, 'precise prefix matching needs real token ids: configure token-producer with backend vllm, local or custom');
      }
      return;
    }
    const keys = this.index.keysFor(tokens, request.targetModel, request.request.cacheSalt, this.#o.maxPrefixBlocksToMatch ?? 0);
    request.attributes.set(this.#keysAttr, keys);
    const ids = endpoints.map((e) => e.id);
    const metrics = this.#o.metrics;
    const started = metrics === undefined ? 0 : this.#clock.now();
    const match = this.index.match(keys, ids);
    metrics?.kvIndexLookupLatency.observe((this.#clock.now() - started) / 1000);
    publishMatchInfo(request, this.name, ids, match, this.index.blockSizeTokens);
  }

  /** With speculative indexing, records the chosen endpoints' blocks until the engine confirms them. */
  preRequest(_ctx: CycleContext, request: SchedulingRequest, result: SchedulingResult): void {
    const keys = request.attributes.get(this.#keysAttr);
    if (keys === undefined) return;
    const indexer = this.#indexerRecorder();
    indexer?.recordChosen(request.attributes.get(matchInfoAttribute(this.name)), result);
    // The index changes with engine events too; the gauge is refreshed at each decision.
    indexer?.recordSize(this.index.size);
    if (this.#o.speculativeIndexing !== true) return;
    const primary = result.profileResults.get(result.primaryProfileName)?.targets[0];
    const prefill = result.profileResults.get('prefill')?.targets[0];
    if (primary !== undefined) this.index.add(primary.id, keys);
    if (prefill !== undefined && prefill.id !== primary?.id) this.index.add(prefill.id, keys);
  }

  #indexerRecorder(): PrefixIndexerRecorder | undefined {
    const metrics = this.#o.metrics;
    if (metrics === undefined) return undefined;
    return (this.#indexer ??= new PrefixIndexerRecorder(metrics, this.name, this.type));
  }

  /** Stops the subscription and stops following the pool. */
  async close(): Promise<void> {
    this.#o.pool?.off('removed', this.#onRemoved);
    const sub = await this.subscriber.catch(() => undefined);
    await sub?.close();
  }
}

/**
 * Plugin definition of `precise-prefix-cache-producer`.
 * @public
 * @category Plugins
 */
export function preciseProducerDefinition(env: PrefixPluginEnv): PluginDefinition<PreciseProducerParams> {
  return definePlugin({
    type: PRECISE_PREFIX_PRODUCER,
    description: 'Precise prefix-cache match info from engine KV events (ZMQ), keyed on real token ids.',
    parameters: preciseProducerParameters,
    consumes: [Attributes.tokens.name],
    produces: [Attributes.prefixMatch.name],
    create: (p, ctx) => {
      const r = resolvePreciseParameters(p);
      for (const what of r.unsupported) env.logger.warn(`${ctx.name}: ${what}`);
      const dialect = r.dialect;
      return new PrecisePrefixProducer({
        name: ctx.name,
        hasher: env.hasher,
        pool: ctx.pool,
        clock: ctx.clock,
        blockSizeTokens: r.blockSizeTokens,
        modelName: p.modelName,
        tierWeights: r.tierWeights,
        otherTierWeight: r.otherTierWeight,
        speculativeIndexing: p.speculativeIndexing,
        speculativeTtlMs: r.speculativeTtlMs,
        maxPrefixBlocksToMatch: p.maxPrefixBlocksToMatch,
        subscribe: r.subscribe
          ? {
              port: r.port,
              topicFilter: r.topicFilter,
              ...(r.replayPort === undefined ? {} : { replayPort: r.replayPort }),
              ...(dialect === undefined ? {} : { dialectOf: () => dialect }),
            }
          : false,
        zeromq: env.zeromq,
        metrics: env.metrics,
      });
    },
  });
}
