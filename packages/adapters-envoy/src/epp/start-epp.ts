import { EndpointPool, isResponder, startDiscovery, MIN_SCRAPE_INTERVAL_MS, MetricsScraper, ModelRewriteStore, ObjectiveStore, SchedulerMetrics, createPickerFromConfig, loadResources, logScrapeOutages, countScrapeErrors, readMetricsTls, recordNotActedOn, systemClock, type Clock, type EndpointPicker, type EndpointSpec, type LoadedConfig, type MetricsScrapeSettings, type MetricsTlsOptions, type PluginPack, type PluginRegistry, DecisionLog, recordDecisions, splitConsoleSection, type DecisionListener, type DecisionTracer, type ReplicaSync } from '@switchyard/core';
import { formatNotActedOn, poolDiscoveryTarget, withScrapePort } from '@switchyard/core/internal';
import { FlowController, flowControlPack } from '@switchyard/flow-control';
import { createPrefixIndexMetrics, prefixIndexPack } from '@switchyard/prefix-index';
import { Registry } from 'prom-client';
import { HealthState } from '../grpc/health.js';
import type { EppServer, EppTlsOptions, EppTransport } from '../grpc/options.js';
import { startEppServer } from '../grpc/server.js';
import { eppConsole } from './console.js';
import { eppSharedState } from './shared-state.js';
import { resolveEppOptions } from './defaults.js';
import { formatServerStats, startMetricsServer, type MetricsHttpServer, type MetricsSource } from './metrics-server.js';

/**
 * Options of {@link startEpp}: a whole endpoint picker from an EndpointPickerConfig. The defaults
 * are `EPP_DEFAULTS`, applied and checked once by `resolveEppOptions`.
 * @public
 * @category EPP
 */
export interface EppOptions {
  /** EndpointPickerConfig text (YAML or JSON); llm-d defaults when absent. */
  readonly configText?: string | undefined;
  /** InferenceObjective / InferenceModelRewrite manifests (YAML or JSON), other kinds ignored. */
  readonly resourcesText?: string | undefined;
  /** The pool's endpoints (`ip:port` strings or specs). */
  readonly endpoints: readonly (string | EndpointSpec)[];
  /**
   * Bind address of both ports.
   * @defaultValue '0.0.0.0'
   */
  readonly host?: string | undefined;
  /**
   * ext_proc + health port; 0 picks a free port.
   * @defaultValue 9002
   */
  readonly grpcPort?: number | undefined;
  /** Health-only gRPC port for probes (llm-d's `--grpc-health-port`, 9003 there); 0 picks a free port. Default: none. */
  readonly grpcHealthPort?: number | undefined;
  /**
   * The pool's name: the `name` label of the pool gauges (`ready_endpoints`, `average_*`) and the
   * `inference_pool` label of flow control's, as llm-d labels them. Default unset (unlabelled).
   */
  readonly poolName?: string | undefined;
  /**
   * `/metrics` port, or false for none.
   * @defaultValue 9090
   */
  readonly metricsPort?: number | false | undefined;
  /** TLS for the gRPC port. */
  readonly tls?: EppTlsOptions | undefined;
  /**
   * Who speaks gRPC: `grpc-js` (`@grpc/grpc-js`) or `http2` (gRPC on `node:http2`, no gRPC
   * library); see `startEppServer`'s `transport`.
   * @defaultValue 'http2'
   */
  readonly transport?: EppTransport | undefined;
  /**
   * Model-server metrics poll interval in ms, or false to not scrape (metrics pushed with
   * `pool.setMetrics`). Without it: the config's `metrics-data-source` interval, else 50.
   */
  readonly scrapeIntervalMs?: number | false | undefined;
  /**
   * Largest request body, bytes (16 MiB).
   * @defaultValue 16777216
   */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Read classification headers (`x-llm-d-*` and aliases) from requests. Off by default in the
   * library (docs/security.md); the `switchyard-epp` CLI turns it on, as llm-d's EPP trusts the
   * headers Envoy forwards.
   * @defaultValue false
   */
  readonly trustClassificationHeaders?: boolean | undefined;
  /**
   * The old name of `trustClassificationHeaders`: still read, with one deprecation warning per
   * process; giving both with different values is an error.
   * @deprecated use `trustClassificationHeaders`
   */
  readonly trustHeaders?: boolean | undefined;
  /**
   * Add the candidates' scores to the `envoy.lb` metadata (llm-d's `--emit-endpoint-scores`).
   * @defaultValue false
   */
  readonly emitEndpointScores?: boolean | undefined;
  /**
   * Record llm-d's ext_proc stream families on `/metrics` (`llm_d_epp_extproc_streams_inflight`,
   * `_stream_duration_seconds`, `_streams_total{code}`), as llm-d's `--enable-grpc-stream-metrics`.
   * @defaultValue false
   */
  readonly grpcStreamMetrics?: boolean | undefined;
  /** The built-ins the packs extend (default: core's). Never changed. */
  readonly registry?: PluginRegistry | undefined;
  /** Plugin packs added after prefix-index's and flow-control's (your own plugin types). */
  readonly packs?: readonly PluginPack[] | undefined;
  /** Time source. */
  readonly clock?: Clock | undefined;
  /** Where the effective configuration and lifecycle lines go. Default: stderr. */
  readonly log?: ((line: string) => void) | undefined;
  /**
   * Serve the operator console at `/console` on the metrics port (overrides the config's
   * top-level `console.enabled`). Off by default: it shows tenants and models.
   */
  readonly console?: boolean | undefined;
  /**
   * Add `x-switchyard-decision-trace` (core's `formatCompactTrace`) to every response Envoy
   * returns to the client (overrides the config's `console.traceHeader`).
   */
  readonly decisionTraceHeader?: boolean | undefined;
  /** Called once per request when it ends, with its decision record (the request log). */
  readonly onRequestEnd?: DecisionListener | undefined;
  /** OpenTelemetry spans per request (`openTelemetryDecisionTracer(await loadOpenTelemetry())`). */
  readonly tracer?: DecisionTracer | undefined;
  /** More series for `/metrics` (e.g. Kubernetes discovery's registry). */
  readonly metricsSources?: readonly MetricsSource[] | undefined;
  /**
   * Initial readiness of the gRPC health service (false until discovery has synced).
   * @defaultValue true
   */
  readonly ready?: boolean | undefined;
  /**
   * Active-active: share in-flight load, routing history and session bindings with the other EPP
   * replicas through this Redis (overrides the config's `switchyard.sharedState.redisUrl`). Needs
   * `@switchyard/redis` and `@redis/client`; picks never wait on Redis.
   */
  readonly redisUrl?: string | undefined;
  /**
   * Shared state to use instead of Redis (e.g. a core `ReplicaSync` over an `InMemoryStateHub`);
   * the EPP attaches its pool, starts it and closes it. Its metrics are the caller's to serve.
   */
  readonly sharedState?: ReplicaSync | undefined;
}

/**
 * A running endpoint picker.
 * @public
 * @category EPP
 */
export interface RunningEpp {
  /** The gRPC server. */
  readonly server: EppServer;
  /** The `/metrics` server, when enabled. */
  readonly metricsServer: MetricsHttpServer | undefined;
  /** The picker. */
  readonly picker: EndpointPicker;
  /** The pool (add or remove endpoints at run time). */
  readonly pool: EndpointPool;
  /** InferenceObjectives the picker reads (from `resourcesText`; change them at run time). */
  readonly objectives: ObjectiveStore;
  /** InferenceModelRewrites the picker reads (from `resourcesText`; change them at run time). */
  readonly rewrites: ModelRewriteStore;
  /** Readiness as the gRPC health service reports it. */
  readonly health: HealthState;
  /** The loaded configuration. */
  readonly config: LoadedConfig;
  /** The flow controller, when the `flowControl` feature gate is on. */
  readonly flowController: FlowController | undefined;
  /** Recent decisions shown by the console, when it is on. */
  readonly decisions: DecisionLog | undefined;
  /** The state shared with the other replicas, when sharing is on. */
  readonly sharedState: ReplicaSync | undefined;
  /** The effective settings as logged at start. */
  readonly effective: Readonly<Record<string, unknown>>;
  /** Graceful shutdown of everything. */
  close(): Promise<void>;
}

/** The document used without `configText`: nothing but the header, so every llm-d default applies. */
const DEFAULT_CONFIG = { apiVersion: 'inference.networking.x-k8s.io/v1alpha1', kind: 'EndpointPickerConfig' };

/**
 * Polls model-server metrics where the config's data layer says (its metrics-data-source sets
 * path, scheme, TLS and interval; its extractors the engine mappings), logging each outage and
 * counting each failure in llm-d's data-layer error families.
 */
function startScraper(o: { pool: EndpointPool; clock: Clock; intervalMs: number; scrape: MetricsScrapeSettings; tls: MetricsTlsOptions | undefined; log: (line: string) => void; metrics: SchedulerMetrics }): MetricsScraper {
  const { scrape } = o;
  const scraper = new MetricsScraper({ pool: o.pool, clock: o.clock, intervalMs: o.intervalMs, path: scrape.path, scheme: scrape.scheme, mappings: scrape.mappings, ...(o.tls === undefined ? {} : { tls: o.tls }) });
  logScrapeOutages(scraper, o.log);
  countScrapeErrors(scraper, o.metrics);
  scraper.start();
  return scraper;
}

/**
 * Starts a complete endpoint picker: loads the config (llm-d defaulting), builds the pool, the
 * picker, flow control when its feature gate is on, model-server metrics scraping, the ext_proc
 * gRPC server and `/metrics`, and logs the effective configuration. This is what the
 * `switchyard-epp` command runs.
 * @public
 * @category EPP
 */
export async function startEpp(input: EppOptions): Promise<RunningEpp> {
  // Resolved once, before anything starts: a bad option is a CONFIG_INVALID naming it (`epp.grpcPort`).
  const options = resolveEppOptions(input);
  const clock = options.clock ?? systemClock;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Filled once the config is loaded: its metrics data source may set the metrics port.
  const pool = new EndpointPool();
  const prefixMetrics = createPrefixIndexMetrics();
  const split = splitConsoleSection(options.configText);
  const consoleOn = options.console ?? split.console.enabled;
  const traceHeader = options.decisionTraceHeader ?? split.console.traceHeader;
  const decisions = consoleOn ? new DecisionLog({ capacity: split.console.decisions, clock }) : undefined;
  const flowRegistry = new Registry();
  const schedulerMetrics = new SchedulerMetrics();
  const resources = options.resourcesText === undefined ? undefined : loadResources(options.resourcesText, { ignoreUnknownKinds: true });
  // Always stores, so discovery can change objectives and rewrites at run time.
  const objectives = new ObjectiveStore(resources?.objectives ?? []);
  const rewrites = new ModelRewriteStore(resources?.modelRewrites ?? []);
  const health = new HealthState(options.ready);
  const sharedRegistry = new Registry();
  const sharedState = options.sharedState ?? (await eppSharedState(split.document, options.redisUrl, { clock, registry: sharedRegistry, log }));
  // Scoped like the gateway's single pool, so EPP and gateway replicas of one pool share alike.
  const shared = sharedState?.scope('default');
  shared?.attachPool(pool);
  let built: ReturnType<typeof createPickerFromConfig>;
  try {
    // Closes whatever it created when it throws.
    built = createPickerFromConfig({
      config: split.document ?? DEFAULT_CONFIG,
      pool,
      clock,
      registry: options.registry,
      packs: [prefixIndexPack({ metrics: prefixMetrics }), flowControlPack, ...(options.packs ?? [])],
      metrics: schedulerMetrics,
      admissionMetrics: flowRegistry,
      poolName: options.poolName,
      objectives,
      rewrites,
      sharedState: shared,
    });
  } catch (error) {
    await sharedState?.close();
    throw error;
  }
  const { picker, config, admission } = built;
  recordNotActedOn(schedulerMetrics.registry, config.notActedOn);
  const flowController = admission instanceof FlowController ? admission : undefined;
  const scrape = config.dataLayerSettings.scrape;
  const interval = options.scrapeIntervalMs ?? scrape.intervalMs ?? MIN_SCRAPE_INTERVAL_MS;
  const host = options.host;
  let scraper: MetricsScraper | undefined;
  let server: EppServer;
  try {
    const tls = interval === false ? undefined : readMetricsTls(scrape);
    for (const e of options.endpoints) pool.add(withScrapePort(typeof e === 'string' ? { address: e } : e, scrape));
    // `dataLayer.discovery` (file-discovery): llm-d's non-Kubernetes mode; the first read must work.
    startDiscovery(config, poolDiscoveryTarget(pool, scrape, log));
    scraper = interval === false ? undefined : startScraper({ pool, clock, intervalMs: interval, scrape, tls, log, metrics: schedulerMetrics });
    // What the server's close hook stops (the variables above stay `undefined`-typed in closures).
    const running = { picker, scraper };
    server = await startEppServer({
      scheduler: recordDecisions(picker, { log: decisions, clock, onEnd: options.onRequestEnd, tracer: options.tracer, traceHeader }),
      pool,
      clock,
      host,
      port: options.grpcPort,
      healthPort: options.grpcHealthPort,
      tls: options.tls,
      transport: options.transport,
      health,
      maxBodyBytes: options.maxBodyBytes,
      parsers: config.parsers,
      trustClassificationHeaders: options.trustClassificationHeaders,
      emitEndpointScores: options.emitEndpointScores,
      streamMetrics: options.grpcStreamMetrics ? schedulerMetrics.registry : undefined,
      responders: [...config.plugins.values()].filter(isResponder),
      onClose: async () => {
        await running.picker.close();
        await running.scraper?.stop();
        await sharedState?.close();
      },
    });
  } catch (error) {
    // Nothing may keep running after a failed start: polls, admission, plugins holding sockets
    // (ZMQ subscribers). The start error is the one to report.
    await scraper?.stop();
    await picker.close().catch(() => undefined);
    await sharedState?.close();
    throw error;
  }
  const sources: MetricsSource[] = [schedulerMetrics.registry, prefixMetrics.registry, { metrics: () => formatServerStats(server.stats()) }];
  if (admission !== undefined) sources.push(flowRegistry);
  if (sharedState !== undefined && options.sharedState === undefined) sources.push(sharedRegistry);
  sources.push(...(options.metricsSources ?? []));
  const metricsPort = options.metricsPort;
  let metricsServer: MetricsHttpServer | undefined;
  const ops = decisions === undefined ? undefined : eppConsole({ pool, decisions, config, flowController, prefixMetrics, clock, stalenessMs: split.console.stalenessMs });
  try {
    metricsServer = metricsPort === false ? undefined : await startMetricsServer({ host, port: metricsPort, sources, ...(ops === undefined ? {} : { routes: ops.handler }) });
  } catch (error) {
    await server.close(0);
    throw error;
  }
  // Background sync from now on; a pick never waits for it.
  sharedState?.start();
  const effective = {
    grpc: { host, port: server.port, transport: server.transport, tls: options.tls !== undefined, ...(server.healthPort === undefined ? {} : { healthPort: server.healthPort }) },
    metrics: metricsServer === undefined ? false : { host, port: metricsServer.port, path: '/metrics' },
    console: metricsServer !== undefined && ops !== undefined,
    endpoints: pool.list().map((e) => e.address),
    scrapeIntervalMs: interval,
    flowControl: flowController !== undefined,
    trustClassificationHeaders: options.trustClassificationHeaders,
    objectives: resources?.objectives.length ?? 0,
    modelRewrites: resources?.modelRewrites.length ?? 0,
    sharedState: sharedState === undefined ? false : { replicaId: sharedState.replicaId, syncIntervalMs: sharedState.syncIntervalMs, maxStalenessMs: sharedState.maxStalenessMs },
  };
  log(`switchyard-epp: effective settings ${JSON.stringify(effective)}`);
  for (const p of config.notActedOn) log(`switchyard-epp: ${formatNotActedOn(p)}`);
  log(`switchyard-epp: effective EndpointPickerConfig\n${config.printEffectiveConfig()}`);
  return {
    server,
    metricsServer,
    picker,
    pool,
    objectives,
    rewrites,
    health,
    config,
    flowController,
    decisions,
    sharedState,
    effective,
    async close() {
      await server.close();
      ops?.close();
      await metricsServer?.close();
    },
  };
}
