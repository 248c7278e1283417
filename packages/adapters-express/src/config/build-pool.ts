import { EndpointPool, MIN_SCRAPE_INTERVAL_MS, startDiscovery, MetricsScraper, ModelRewriteStore, ObjectiveStore, createPickerFromConfig, isStale, readMetricsTls, recordDecisions, recordNotActedOn } from '@switchyard/core';
import { formatNotActedOn, poolDiscoveryTarget, withScrapePort } from '@switchyard/core/internal';
import type { Clock, DecisionListener, DecisionLog, DecisionTracer, EndpointPicker, EndpointSpec, LoadedConfig, LoadedResources, PickerFromConfig, PluginPack, RequestParser, SchedulerMetrics, SharedState } from '@switchyard/core';
import { FlowController } from '@switchyard/flow-control';
import { Registry } from 'prom-client';
import type { GatewayPool } from '../gateway/pool.js';
import { EndpointRotation } from '../gateway/rotation.js';
import { createUndiciMetricsFetcher } from './metrics-fetcher.js';
import type { GatewayEndpointInput, GatewaySection } from './schema.js';

/**
 * What {@link buildPool} needs for one pool.
 * @public
 */
export interface PoolBuildSpec {
  /** Pool name. */
  readonly name: string;
  /** Endpoints. */
  readonly endpoints: readonly GatewayEndpointInput[];
  /** Model and LoRA names the pool serves (empty: none declared). */
  readonly models: readonly string[];
  /** The pool's EndpointPickerConfig document (without `gateway`). */
  readonly document: Record<string, unknown>;
}

/**
 * Shared pieces of every pool of one gateway.
 * @public
 */
export interface PoolBuildContext {
  /** Time source. */
  readonly clock: Clock;
  /** The validated gateway section (circuit breaker and scraping settings). */
  readonly section: GatewaySection;
  /** Picker metrics shared by every pool (one set of `llm_d_epp_*` series). */
  readonly schedulerMetrics: SchedulerMetrics;
  /** Plugin packs (prefix-index, flow-control, user plugins); see `createPickerFromConfig` for the rules. */
  readonly packs: readonly PluginPack[];
  /** Poll model servers' `/metrics`. */
  readonly scrape: boolean;
  /** Called with each pool's scraper before it starts (to report its polls). */
  readonly onScraper?: (pool: string, scraper: MetricsScraper) => void;
  /** Record every decision (with its trace) here, for the console. */
  readonly decisions?: DecisionLog | undefined;
  /** Called once per request when it ends (the request log). */
  readonly onDecisionEnd?: DecisionListener | undefined;
  /** OpenTelemetry spans per request. */
  readonly tracer?: DecisionTracer | undefined;
  /** Add the compact decision trace header to every response. */
  readonly traceHeader?: boolean | undefined;
  /** Where one-time config notices go (parameters accepted but not acted on). */
  readonly log?: ((line: string) => void) | undefined;
  /** State shared with the other gateway replicas; each pool shares under its own name. */
  readonly sharedState?: SharedState | undefined;
  /**
   * InferenceObjectives and InferenceModelRewrites every pool starts with (`--resources`). With
   * `resourcesByPool`, a pool keeps only those whose `poolRefs` / `poolRef` name it (or name no pool).
   */
  readonly resources?: LoadedResources | undefined;
  /** Filter {@link PoolBuildContext.resources} by pool name (a gateway with several pools). */
  readonly resourcesByPool?: boolean;
}

/**
 * A running pool: what the gateway routes to, plus what must be stopped on shutdown.
 * @public
 * @category Config
 */
export interface BuiltPool {
  /** The pool as the gateway sees it. */
  readonly pool: GatewayPool;
  /** The pool discovery/config maintains (the rotation mirrors it). */
  readonly source: EndpointPool;
  /** The picker. */
  readonly picker: EndpointPicker;
  /** InferenceObjectives the picker reads (from `--resources`, or filled by discovery). */
  readonly objectives: ObjectiveStore;
  /** InferenceModelRewrites the picker reads (from `--resources`, or filled by discovery). */
  readonly rewrites: ModelRewriteStore;
  /** Flow-control metrics of this pool (labelled `inference_pool`), when flow control is on. */
  readonly registry: Registry | undefined;
  /** The loaded configuration (its plugin instances feed the console's prefix-index view). */
  readonly config: LoadedConfig;
  /** The pool's flow controller, when its `flowControl` feature gate is on. */
  readonly flowController: FlowController | undefined;
  /** The request parsers the pool's config names in `requestHandler.parsers`, if it names any. */
  readonly parsers: readonly RequestParser[] | undefined;
  /** Stops scraping, admission and the breaker. */
  close(): Promise<void>;
}

const specOf = (e: GatewayEndpointInput): EndpointSpec => {
  if (typeof e === 'string') return { address: e };
  return {
    address: e.address,
    ...(e.id === undefined ? {} : { id: e.id }),
    ...(e.labels === undefined ? {} : { labels: e.labels }),
    ...(e.metricsPort === undefined ? {} : { metricsPort: e.metricsPort }),
  };
};

/**
 * Builds one pool: endpoint pool, circuit-breaking rotation, metrics scraper, and the picker from
 * the pool's config and the gateway's packs (core's `createPickerFromConfig`: flow control when
 * its feature gate is on, llm-d's legacy admission otherwise).
 * @throws SwitchyardError `CONFIG_INVALID` from the config loader, the flow-control settings, or
 *   for a metrics TLS file that cannot be read, naming the pool
 * @public
 */
export function buildPool(spec: PoolBuildSpec, ctx: PoolBuildContext): BuiltPool {
  const { clock, section } = ctx;
  // Filled once the config is loaded: its metrics data source may set the metrics port.
  const source = new EndpointPool();
  const cb = section.circuitBreaker;
  const { enabled, ...rotationOptions } = cb;
  const rotation = enabled ? new EndpointRotation({ ...rotationOptions, source, clock }) : undefined;
  const pool = rotation?.pool ?? source;
  // The pool the picker schedules over (and counts in-flight load on) is the one shared; pools
  // share under their names, so the pools of a multi-model gateway never mix.
  const shared = ctx.sharedState?.scope(spec.name);
  shared?.attachPool(pool);
  const fcRegistry = new Registry();
  let built: PickerFromConfig;
  let tls;
  const byPool = ctx.resourcesByPool === true ? { poolName: spec.name } : {};
  const objectives = new ObjectiveStore(ctx.resources?.objectives ?? [], byPool);
  const rewrites = new ModelRewriteStore(ctx.resources?.modelRewrites ?? [], byPool);
  try {
    built = createPickerFromConfig({ config: spec.document, pool, clock, packs: ctx.packs, metrics: ctx.schedulerMetrics, admissionMetrics: fcRegistry, poolName: spec.name, objectives, rewrites, sharedState: shared });
  } catch (err) {
    if (err instanceof Error) err.message = `pool "${spec.name}": ${err.message}`;
    rotation?.close();
    throw err;
  }
  const { picker, config: loaded } = built;
  recordNotActedOn(ctx.schedulerMetrics.registry, loaded.notActedOn);
  for (const p of loaded.notActedOn) ctx.log?.(`pool "${spec.name}": ${formatNotActedOn(p)}`);
  try {
    tls = ctx.scrape ? readMetricsTls(loaded.dataLayerSettings.scrape) : undefined;
  } catch (err) {
    if (err instanceof Error) err.message = `pool "${spec.name}": ${err.message}`;
    rotation?.close();
    // Closing the picker stops its admission and closes the plugins (ZMQ subscribers hold sockets).
    void picker.close().catch(() => undefined);
    throw err;
  }
  const scrape = loaded.dataLayerSettings.scrape;
  for (const e of spec.endpoints) source.upsert(withScrapePort(specOf(e), scrape));
  try {
    // `dataLayer.discovery` (file-discovery): the plugin fills the pool beside configured endpoints.
    startDiscovery(loaded, poolDiscoveryTarget(source, scrape, (line) => ctx.log?.(`pool "${spec.name}": ${line}`)));
  } catch (err) {
    if (err instanceof Error) err.message = `pool "${spec.name}": ${err.message}`;
    rotation?.close();
    void picker.close().catch(() => undefined);
    throw err;
  }
  const fetcher = ctx.scrape ? createUndiciMetricsFetcher(tls === undefined ? {} : { tls }) : undefined;
  const scraper =
    fetcher === undefined
      ? undefined
      : new MetricsScraper({
          pool: source,
          clock,
          intervalMs: section.metrics.scrapeIntervalMs ?? scrape.intervalMs ?? MIN_SCRAPE_INTERVAL_MS,
          timeoutMs: section.metrics.scrapeTimeoutMs,
          path: scrape.path,
          scheme: scrape.scheme,
          mappings: scrape.mappings,
          fetch: fetcher,
        });
  if (scraper !== undefined) {
    ctx.onScraper?.(spec.name, scraper);
    scraper.start();
  }
  const scheduler = recordDecisions(picker, { log: ctx.decisions, clock, pool: spec.name, onEnd: ctx.onDecisionEnd, tracer: ctx.tracer, traceHeader: ctx.traceHeader });
  return {
    pool: { name: spec.name, scheduler, endpoints: pool, ...(rotation === undefined ? {} : { rotation }), ...(scraper === undefined ? {} : { ready: freshEndpointIn(pool, clock, loaded.dataLayerSettings.staleness.thresholdMs) }), models: spec.models },
    source,
    picker,
    objectives,
    rewrites,
    registry: built.admission === undefined ? undefined : fcRegistry,
    config: loaded,
    flowController: built.admission instanceof FlowController ? built.admission : undefined,
    parsers: loaded.parsers,
    close: async () => {
      await picker.close();
      await scraper?.stop();
      await fetcher?.close();
      rotation?.close();
    },
  };
}

/**
 * Readiness of a scraped pool: some endpoint in rotation answered its last metrics poll within
 * the staleness threshold. Endpoints that refuse connections (or whose `/metrics` is broken)
 * never have fresh metrics, so a pool of dead endpoints is not ready even though the circuit
 * breaker keeps `minInRotation` of them in rotation.
 */
function freshEndpointIn(pool: EndpointPool, clock: Clock, thresholdMs: number): () => boolean {
  return () => {
    const now = clock.now();
    return pool.list().some((e) => !isStale(e, now, thresholdMs));
  };
}
