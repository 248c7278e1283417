import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { flowControlPack } from '@switchyard/flow-control';
import { prefixIndexPack } from '@switchyard/prefix-index';
import { DecisionLog, SchedulerMetrics, SwitchyardError, countScrapeErrors, loadResources, systemClock } from '@switchyard/core';
import type { Clock, ConsoleHandler, DecisionListener, DecisionTracer, LoadedResources, PluginDefinition, PluginPack, ReplicaSync, RequestParser } from '@switchyard/core';
import { createGatewayHandler, type GatewayHandler } from '../gateway/handler.js';
import { GatewayMetrics } from '../gateway/metrics.js';
import type { GatewayOptions } from '../gateway/options.js';
import { ModelRegistry } from '../models/registry.js';
import type { ModelRouter } from '../models/router.js';
import { KnownModels } from '../models/known-models.js';
import { CatalogueRouter, type ModelCatalogue } from '../models/catalogue-router.js';
import { buildPool, type BuiltPool, type PoolBuildContext } from './build-pool.js';
import { configDir, resolvePoolDocument, splitConfig } from './document.js';
import type { GatewaySection } from './schema.js';
import { gatewayConsole } from './console.js';
import { reportScrapes } from './scrape-reporting.js';
import { sectionHandlerOptions, sectionShutdownGraceMs } from './handler-options.js';
import { listenOn, metricsListener } from './metrics-server.js';
import { gatewaySharedState } from './shared-state.js';

/**
 * Options of {@link createGatewayFromConfig}.
 * @public
 * @category Config
 */
export interface GatewayFromConfigOptions {
  /** EndpointPickerConfig with an optional `gateway` section: YAML/JSON text or a parsed document. Omitted: llm-d defaults. */
  readonly config?: string | Record<string, unknown>;
  /** Where the config came from: named in errors; relative pool `config` paths resolve against its directory. */
  readonly configPath?: string;
  /** Model servers (`ip:port`): one pool, no model registry. Overrides the section's endpoints and pools. */
  readonly endpoints?: readonly string[];
  /** Start the single pool with no endpoints: a discovery (e.g. Kubernetes) fills `pools[0].source`. */
  readonly emptyPool?: boolean;
  /**
   * Single pool only: the model names it serves, live (e.g. `@switchyard/kubernetes`'s
   * `BaseModelMap` of the IPP model-mapping ConfigMaps; see {@link CatalogueRouter}). While the
   * catalogue names any model, only those are listed on `/v1/models` and routed, any other name
   * answers 404 `model_not_found`; while it is empty, every name is forwarded. Its names also label
   * the metrics.
   */
  readonly modelCatalogue?: ModelCatalogue;
  /**
   * InferenceObjective / InferenceModelRewrite manifests (YAML or JSON text; other kinds are
   * skipped), as `switchyard-gateway --resources FILE` reads them: objectives give requests that
   * name them in `x-gateway-inference-objective` their priority band (when the client is trusted,
   * see `gateway.trust`), rewrites change the model. With `gateway.pools`, a pool takes those whose
   * `poolRefs` / `poolRef` name it, or that name no pool.
   */
  readonly resources?: string;
  /** Where {@link GatewayFromConfigOptions.resources} came from: named in its errors. */
  readonly resourcesPath?: string;
  /** Listen port (overrides `gateway.listen.port`). */
  readonly port?: number;
  /** Listen host (overrides `gateway.listen.host`). */
  readonly host?: string;
  /** Time source. @default systemClock */
  readonly clock?: Clock;
  /** Extra plugin types for every pool (your own; they replace built-ins of the same type). */
  readonly plugins?: readonly PluginDefinition[];
  /** Extra plugin packs for every pool, after prefix-index's and flow-control's. */
  readonly packs?: readonly PluginPack[];
  /**
   * Register `@switchyard/prefix-index`'s plugins (prefix-cache scorer, producers, affinity
   * filter...), so llm-d's default profile includes `prefix-cache-scorer` (weight 3). @default true
   */
  readonly prefixIndex?: boolean;
  /** Poll the model servers' `/metrics`. @default true */
  readonly scrapeMetrics?: boolean;
  /**
   * Diagnostics: receives a line when an endpoint's metrics polls start failing and when they
   * recover (the CLI writes them to stderr). Failures are also counted in
   * `switchyard_gateway_metrics_scrape_errors_total`.
   */
  readonly log?: (line: string) => void;
  /** Serve the operator console at `/console` (overrides `gateway.console.enabled`). */
  readonly console?: boolean;
  /**
   * Add `x-switchyard-decision-trace` (core's `formatCompactTrace`) to every response (overrides
   * `gateway.console.traceHeader`).
   */
  readonly decisionTraceHeader?: boolean;
  /** Called once per request when it ends, with its decision record (the request log). */
  readonly onRequestEnd?: DecisionListener;
  /** OpenTelemetry spans per request (`openTelemetryDecisionTracer(await loadOpenTelemetry())`). */
  readonly tracer?: DecisionTracer;
  /** Handler options not expressible in the config (classify hook, dispatcher...). */
  readonly handler?: Partial<Omit<GatewayOptions, 'scheduler' | 'models' | 'endpoints' | 'rotation'>>;
  /**
   * Share in-flight load, routing history and session bindings with the other gateway replicas
   * through this Redis (`redis://host:port`; overrides `gateway.sharedState.redisUrl`). Needs
   * `@switchyard/redis` and `@redis/client`. Requests never wait on Redis.
   */
  readonly redisUrl?: string;
  /**
   * Shared state to use instead of Redis (e.g. a core `ReplicaSync` over an `InMemoryStateHub`
   * for several gateways in one process). The gateway attaches its pools, starts and closes it.
   */
  readonly sharedState?: ReplicaSync;
}

/**
 * A gateway built from a config: the handler, its pools, and an HTTP server on demand.
 * @public
 * @category Config
 */
export interface Gateway {
  /** The request handler (use it in your own server, or call {@link Gateway.listen}). */
  readonly handler: GatewayHandler;
  /** The pools, in config order. */
  readonly pools: readonly BuiltPool[];
  /** The validated `gateway` section. */
  readonly section: GatewaySection;
  /** Registry with the gateway's and the pickers' metrics. */
  readonly registry: Registry;
  /** The operator console's route handler, when enabled (`listen` mounts it at `/console`). */
  readonly console: ConsoleHandler | undefined;
  /** The state shared with the other replicas, when sharing is on (from `redisUrl`/`sharedState` settings its metrics are in `registry`). */
  readonly sharedState: ReplicaSync | undefined;
  /**
   * Starts an HTTP server with the handler (and the console), and the metrics server when
   * `gateway.metricsListen` is set; resolves with their URLs.
   */
  listen(port?: number, host?: string): Promise<{ readonly url: string; readonly port: number; readonly server: Server; readonly metricsUrl?: string }>;
  /** Graceful shutdown: handler (drain), pools (admission, scraping), then the server. */
  close(): Promise<void>;
}

/**
 * Builds a whole gateway from an llm-d EndpointPickerConfig plus Switchyard's optional `gateway`
 * section: the programmatic equivalent of the `switchyard-gateway` CLI.
 * @example
 * ```ts
 * const gateway = await createGatewayFromConfig({ endpoints: ['10.0.0.1:8000', '10.0.0.2:8000'] });
 * const { url } = await gateway.listen(8080);
 * ```
 * @throws SwitchyardError `CONFIG_INVALID` naming the path and the problem
 * @public
 * @category Config
 */
export async function createGatewayFromConfig(options: GatewayFromConfigOptions = {}): Promise<Gateway> {
  const where = options.configPath ?? 'config';
  const { endpointPicker, gateway: section } = splitConfig(options.config, where);
  const clock = options.clock ?? systemClock;
  const registry = new Registry();
  const consoleOn = options.console ?? section.console.enabled;
  const decisions = consoleOn ? new DecisionLog({ capacity: section.console.decisions, clock }) : undefined;
  const metrics = options.handler?.metrics ?? new GatewayMetrics(registry);
  // Metrics label only models the gateway knows: client-chosen names cannot fill the series cap.
  const known = new KnownModels([
    ...(section.pools ?? []).flatMap((p) => p.models),
    ...section.routes.flatMap((r) => [r.name, ...r.split.flatMap((t) => (t.model === undefined ? [] : [t.model]))]),
  ]);
  const resources = readResources(options);
  const sharedState = options.sharedState ?? (await gatewaySharedState({ section, endpointPicker, redisUrl: options.redisUrl, clock, registry, log: options.log }));
  // Per-plugin timings on one cycle in 32: timing every plugin call costs more than the plugins.
  const schedulerMetrics = new SchedulerMetrics({ registry, pluginSampleEvery: 32, modelLabel: known.label });
  const ctx: PoolBuildContext = {
    sharedState,
    clock,
    section,
    schedulerMetrics,
    packs: [
      ...(options.prefixIndex === false ? [] : [prefixIndexPack({ registry })]),
      flowControlPack,
      ...(options.packs ?? []),
      ...(options.plugins === undefined ? [] : [{ name: 'GatewayFromConfigOptions.plugins', plugins: options.plugins }]),
    ],
    scrape: options.scrapeMetrics ?? true,
    log: options.log,
    onScraper: (pool, scraper) => {
      reportScrapes(pool, scraper, metrics, options.log);
      countScrapeErrors(scraper, schedulerMetrics);
    },
    decisions,
    onDecisionEnd: options.onRequestEnd,
    tracer: options.tracer,
    traceHeader: options.decisionTraceHeader ?? section.console.traceHeader,
    resources,
    resourcesByPool: options.endpoints === undefined && section.pools !== undefined,
  };
  const pools: BuiltPool[] = [];
  const closeAll = async (): Promise<void> => {
    known.close();
    catalogueRouter?.close();
    await Promise.all(pools.map((p) => p.close()));
    await sharedState?.close();
  };
  let models: ModelRouter | undefined;
  let catalogueRouter: CatalogueRouter | undefined;
  let parsers: readonly RequestParser[] | undefined;
  try {
    if (options.endpoints !== undefined || section.pools === undefined) {
      const endpoints = options.endpoints ?? section.endpoints;
      // A `dataLayer.discovery` plugin (file-discovery) brings the endpoints itself.
      const discovered = typeof (endpointPicker['dataLayer'] as { discovery?: unknown } | undefined)?.discovery === 'object';
      if ((endpoints === undefined || endpoints.length === 0) && options.emptyPool !== true && !discovered) {
        // Load the document anyway: its own error (an unknown plugin, a bad parameter) is what
        // the operator needs to see first, not the missing endpoints.
        await buildPool({ name: 'default', endpoints: [], models: [], document: endpointPicker }, { ...ctx, scrape: false }).close();
        throw new SwitchyardError('CONFIG_INVALID', `${where}: no model servers: give --endpoints, gateway.endpoints, gateway.pools or dataLayer.discovery`);
      }
      pools.push(buildPool({ name: 'default', endpoints: endpoints ?? [], models: [], document: endpointPicker }, ctx));
    } else {
      const base = configDir(options.configPath);
      for (const p of section.pools) {
        const document = await resolvePoolDocument(p.config, endpointPicker, base, p.name);
        pools.push(buildPool({ name: p.name, endpoints: p.endpoints, models: p.models, document }, ctx));
      }
      if (options.modelCatalogue !== undefined) throw new SwitchyardError('CONFIG_INVALID', `${where}: gateway.pools: a model catalogue (Kubernetes model mappings) fills one pool; the config defines several`);
      models = new ModelRegistry({ pools: pools.map((p) => p.pool), routes: section.routes });
    }
    parsers = agreedParsers(pools, where);
  } catch (err) {
    await closeAll();
    throw err;
  }
  const single = pools[0]?.pool;
  // Single pool: no configured model list; the endpoints' own lists tell which names are real.
  if (models === undefined && single?.endpoints !== undefined) known.follow(single.endpoints, clock);
  if (models === undefined && single !== undefined && options.modelCatalogue !== undefined) {
    models = catalogueRouter = new CatalogueRouter(single, options.modelCatalogue);
    known.followCatalogue(options.modelCatalogue);
  }
  let routing: Pick<GatewayOptions, 'models' | 'scheduler' | 'endpoints' | 'rotation' | 'ready'> = {};
  if (models !== undefined) routing = { models };
  else if (single !== undefined) {
    routing = {
      scheduler: single.scheduler,
      ...(single.endpoints === undefined ? {} : { endpoints: single.endpoints }),
      ...(single.rotation === undefined ? {} : { rotation: single.rotation }),
      ...(single.ready === undefined ? {} : { ready: single.ready }),
    };
  }
  const handler = createGatewayHandler({
    ...routing,
    metrics,
    // The pickers' and prefix index's metrics are in `registry` even when the caller brings its own GatewayMetrics.
    metricsRegistries: [registry, ...pools.flatMap((p) => (p.registry === undefined ? [] : [p.registry]))],
    ...sectionHandlerOptions(section),
    serveMetrics: section.metricsListen === undefined,
    ...(parsers === undefined ? {} : { parsers }),
    clock,
    ...options.handler,
  });
  const ops = decisions === undefined ? undefined : gatewayConsole({ pools, decisions, registry, clock, stalenessMs: section.console.stalenessMs });
  const consoleHandler = ops?.handler;
  let server: Server | undefined;
  let metricsServer: Server | undefined;
  // Background sync from now on (the pools are attached); a pick never waits for it.
  sharedState?.start();
  return {
    handler,
    pools,
    section,
    registry,
    console: consoleHandler,
    sharedState,
    async listen(port, host) {
      const s = createServer(consoleHandler === undefined ? handler : (req, res) => { if (!consoleHandler(req, res)) handler(req, res); });
      // Keep-alive longer than typical client pools, so idle connections are closed by clients.
      s.keepAliveTimeout = 65_000;
      server = s;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port ?? options.port ?? section.listen.port, host ?? options.host ?? section.listen.host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      const addr = s.address() as AddressInfo;
      const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      const url = `http://${h}:${addr.port}`;
      const ml = section.metricsListen;
      if (ml === undefined) return { url, port: addr.port, server: s };
      metricsServer = createServer(metricsListener(handler.metrics.registry, [registry, ...pools.flatMap((p) => (p.registry === undefined ? [] : [p.registry]))]));
      return { url, port: addr.port, server: s, metricsUrl: await listenOn(metricsServer, ml.port, ml.host) };
    },
    async close() {
      await handler.close({ graceMs: sectionShutdownGraceMs(section) });
      ops?.close();
      await closeAll();
      const m = metricsServer;
      if (m !== undefined) await new Promise<void>((resolve) => m.close(() => { resolve(); }));
      const s = server;
      if (s !== undefined) {
        s.closeIdleConnections();
        await new Promise<void>((resolve) => s.close(() => { resolve(); }));
      }
    },
  };
}

/**
 * The request parsers of the gateway: those the pools' configs name in `requestHandler.parsers`.
 * A request is parsed before its model tells which pool serves it, so pools must agree.
 */
function readResources(options: GatewayFromConfigOptions): LoadedResources | undefined {
  if (options.resources === undefined) return undefined;
  try {
    return loadResources(options.resources, { ignoreUnknownKinds: true });
  } catch (err) {
    if (err instanceof Error) err.message = `${options.resourcesPath ?? 'resources'}: ${err.message}`;
    throw err;
  }
}

function agreedParsers(pools: readonly BuiltPool[], where: string): readonly RequestParser[] | undefined {
  const describe = (list: readonly RequestParser[] | undefined): string => (list === undefined ? 'the defaults' : list.map((p) => p.type).join(', '));
  const first = pools[0];
  for (const other of pools.slice(1)) {
    if (first !== undefined && describe(other.parsers) !== describe(first.parsers)) {
      throw new SwitchyardError(
        'CONFIG_INVALID',
        `${where}: pools "${first.pool.name}" and "${other.pool.name}" name different requestHandler.parsers (${describe(first.parsers)} / ${describe(other.parsers)}); the gateway parses a request before it knows its pool, so they must agree`,
      );
    }
  }
  return first?.parsers;
}
