import type { IncomingMessage } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import type { Registry } from 'prom-client';
import { SwitchyardError, systemClock } from '@switchyard/core';
import type { Clock, ParseOptions } from '@switchyard/core';
import { requestIdGenerator } from './request-id.js';
import { singlePoolRouter, type ModelRouter } from '../models/router.js';
import { GatewayMetrics } from './metrics.js';
import type { ClassifyHook, FailureMode, GatewayOptions } from './options.js';
import { resolveGatewayOptions } from './defaults.js';
import { RequestTracker } from './tracker.js';
import { BodyWatch } from './body-watch.js';

/**
 * Resolved gateway settings and shared state (one per handler).
 * @public
 */
export interface GatewayRuntime {
  /** Model → pool routing. */
  readonly router: ModelRouter;
  /** Time source. */
  readonly clock: Clock;
  /** The gateway's metrics. */
  readonly metrics: GatewayMetrics;
  /** Every registry served on `/metrics` (gateway first, no duplicates). */
  readonly registries: readonly Registry[];
  /** Forwarding dispatcher. */
  readonly dispatcher: Dispatcher;
  /** True when the gateway created the dispatcher (and closes it on shutdown). */
  readonly ownsDispatcher: boolean;
  /** Request stages, for shutdown. */
  readonly tracker: RequestTracker;
  /** Body limit. */
  readonly maxBodyBytes: number;
  /** Deadlines and the buffered-bytes cap of bodies being read. */
  readonly bodyWatch: BodyWatch;
  /** Inference paths. */
  readonly inferencePaths: ReadonlySet<string>;
  /** Whether a request's classification headers are honoured. */
  readonly trusts: (req: IncomingMessage) => boolean;
  /** Classification hook. */
  readonly classify: ClassifyHook | undefined;
  /** Scheduler failure handling. */
  readonly failureMode: FailureMode;
  /** Attempts per request. */
  readonly maxAttempts: number;
  /** Upstream head timeout. */
  readonly headersTimeoutMs: number;
  /** Upstream body idle timeout. */
  readonly bodyTimeoutMs: number;
  /** Record decision traces. */
  readonly trace: boolean;
  /** Serve the operational routes. */
  readonly operationalRoutes: boolean;
  /** Serve `/metrics` (with the operational routes). */
  readonly serveMetrics: boolean;
  /** `Retry-After` of 429s. */
  readonly retryAfterSeconds: number;
  /** Round-robin cursor of FailOpen, per pool name. */
  readonly failOpenCursor: Map<string, number>;
  /** Options handed to `parseRequest` (limit, parsers, request-id generator). */
  readonly parseOptions: ParseOptions;
}

/**
 * Resolves the options ({@link resolveGatewayOptions}) and builds the runtime.
 * @throws SwitchyardError `CONFIG_INVALID` when neither `scheduler` nor `models` is given, or an
 * option is invalid (its `field` names it)
 * @public
 */
export function createRuntime(options: GatewayOptions): GatewayRuntime {
  const o = resolveGatewayOptions(options);
  let router = o.models;
  if (router === undefined) {
    if (o.scheduler === undefined) throw new SwitchyardError('CONFIG_INVALID', 'gateway options: give `scheduler` (one pool) or `models` (a model registry)', { field: 'gateway.scheduler' });
    router = singlePoolRouter({
      name: o.poolName,
      scheduler: o.scheduler,
      ...(o.endpoints === undefined ? {} : { endpoints: o.endpoints }),
      ...(o.rotation === undefined ? {} : { rotation: o.rotation }),
      ...(o.ready === undefined ? {} : { ready: o.ready }),
    });
  }
  const up = o.upstream;
  const dispatcher =
    o.dispatcher ??
    new Agent({
      connections: up.connectionsPerEndpoint,
      keepAliveTimeout: up.keepAliveTimeoutMs,
      connect: { timeout: up.connectTimeoutMs },
      headersTimeout: up.headersTimeoutMs,
      bodyTimeout: up.bodyTimeoutMs,
    });
  const metrics = o.metrics ?? new GatewayMetrics();
  const registries = [...new Set([metrics.registry, ...(o.metricsRegistries ?? [])])];
  const trust = o.trustClassificationHeaders;
  const clock = o.clock ?? systemClock;
  for (const pool of router.pools()) watchRotation(metrics, pool.name, pool.rotation);
  const bodyWatch = new BodyWatch(clock, {
    readTimeoutMs: o.bodyReadTimeoutMs,
    idleTimeoutMs: o.bodyIdleTimeoutMs,
    maxBufferedBytes: o.maxBufferedBodyBytes,
  });
  const bufferedGauge = metrics.requestBodyBuffered;
  bodyWatch.onBufferedChange = (bytes) => { bufferedGauge.set(bytes); };
  return {
    router,
    clock,
    metrics,
    registries,
    dispatcher,
    ownsDispatcher: o.dispatcher === undefined,
    tracker: new RequestTracker(),
    maxBodyBytes: o.maxBodyBytes,
    bodyWatch,
    inferencePaths: new Set(o.inferencePaths),
    trusts: typeof trust === 'function' ? trust : () => trust,
    classify: o.classify,
    failureMode: o.failureMode,
    maxAttempts: up.maxAttempts,
    headersTimeoutMs: up.headersTimeoutMs,
    bodyTimeoutMs: up.bodyTimeoutMs,
    trace: o.trace,
    operationalRoutes: o.serveOperationalRoutes,
    serveMetrics: o.serveMetrics,
    retryAfterSeconds: o.retryAfterSeconds,
    failOpenCursor: new Map(),
    parseOptions: { maxBodyBytes: o.maxBodyBytes, maxJsonDepth: o.maxJsonDepth, generateId: requestIdGenerator(), ...(o.parsers === undefined ? {} : { parsers: o.parsers }) },
  };
}

function watchRotation(metrics: GatewayMetrics, pool: string, rotation: GatewayOptions['rotation']): void {
  if (rotation === undefined) return;
  const gauge = metrics.outOfRotation.labels(pool);
  const update = (): void => { gauge.set(rotation.outOfRotation().length); };
  rotation.on('open', () => {
    metrics.breakerTransitions.labels(pool, 'open').inc();
    update();
  });
  rotation.on('halfOpen', () => {
    metrics.breakerTransitions.labels(pool, 'half_open').inc();
    update();
  });
  rotation.on('close', () => {
    metrics.breakerTransitions.labels(pool, 'closed').inc();
    update();
  });
  update();
}
