import type { IncomingMessage } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import type { Registry } from 'prom-client';
import { SwitchyardError, systemClock, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_JSON_DEPTH } from '@switchyard/core';
import type { Clock, ParseOptions } from '@switchyard/core';
import { requestIdGenerator } from './request-id.js';
import { singlePoolRouter, type ModelRouter } from '../models/router.js';
import { GatewayMetrics } from './metrics.js';
import { DEFAULT_INFERENCE_PATHS, type ClassifyHook, type FailureMode, type GatewayOptions } from './options.js';
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
 * Validates options and builds the runtime.
 * @throws SwitchyardError `CONFIG_INVALID` when neither `scheduler` nor `models` is given, or a limit is not positive
 * @public
 */
export function createRuntime(options: GatewayOptions): GatewayRuntime {
  let router = options.models;
  if (router === undefined) {
    if (options.scheduler === undefined) throw new SwitchyardError('CONFIG_INVALID', 'gateway options: give `scheduler` (one pool) or `models` (a model registry)');
    router = singlePoolRouter({
      name: options.poolName ?? 'default',
      scheduler: options.scheduler,
      ...(options.endpoints === undefined ? {} : { endpoints: options.endpoints }),
      ...(options.rotation === undefined ? {} : { rotation: options.rotation }),
      ...(options.ready === undefined ? {} : { ready: options.ready }),
    });
  }
  const positive = (name: string, v: number): number => {
    if (!Number.isFinite(v) || v <= 0) throw new SwitchyardError('CONFIG_INVALID', `gateway options: ${name} must be a positive number, got ${String(v)}`);
    return v;
  };
  const up = options.upstream ?? {};
  const headersTimeoutMs = positive('upstream.headersTimeoutMs', up.headersTimeoutMs ?? 300_000);
  const bodyTimeoutMs = positive('upstream.bodyTimeoutMs', up.bodyTimeoutMs ?? 300_000);
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connections: positive('upstream.connectionsPerEndpoint', up.connectionsPerEndpoint ?? 256),
      keepAliveTimeout: positive('upstream.keepAliveTimeoutMs', up.keepAliveTimeoutMs ?? 60_000),
      connect: { timeout: positive('upstream.connectTimeoutMs', up.connectTimeoutMs ?? 5000) },
      headersTimeout: headersTimeoutMs,
      bodyTimeout: bodyTimeoutMs,
    });
  const metrics = options.metrics ?? new GatewayMetrics();
  const registries = [...new Set([metrics.registry, ...(options.metricsRegistries ?? [])])];
  const trust = options.trustClassificationHeaders ?? false;
  const clock = options.clock ?? systemClock;
  for (const pool of router.pools()) watchRotation(metrics, pool.name, pool.rotation);
  const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  const bodyWatch = new BodyWatch(clock, {
    readTimeoutMs: positive('bodyReadTimeoutMs', options.bodyReadTimeoutMs ?? 60_000),
    idleTimeoutMs: positive('bodyIdleTimeoutMs', options.bodyIdleTimeoutMs ?? 15_000),
    maxBufferedBytes: positive('maxBufferedBodyBytes', options.maxBufferedBodyBytes ?? 256 * 1024 * 1024),
  });
  const bufferedGauge = metrics.requestBodyBuffered;
  bodyWatch.onBufferedChange = (bytes) => { bufferedGauge.set(bytes); };
  return {
    router,
    clock,
    metrics,
    registries,
    dispatcher,
    ownsDispatcher: options.dispatcher === undefined,
    tracker: new RequestTracker(),
    maxBodyBytes,
    bodyWatch,
    inferencePaths: new Set(options.inferencePaths ?? DEFAULT_INFERENCE_PATHS),
    trusts: typeof trust === 'function' ? trust : () => trust,
    classify: options.classify,
    failureMode: options.failureMode ?? 'FailClose',
    maxAttempts: Math.max(1, Math.floor(up.maxAttempts ?? 3)),
    headersTimeoutMs,
    bodyTimeoutMs,
    trace: options.trace ?? false,
    operationalRoutes: options.serveOperationalRoutes ?? true,
    serveMetrics: options.serveMetrics ?? true,
    retryAfterSeconds: Math.ceil(positive('retryAfterSeconds', options.retryAfterSeconds ?? 1)),
    failOpenCursor: new Map(),
    parseOptions: { maxBodyBytes, maxJsonDepth: positive('maxJsonDepth', options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH), generateId: requestIdGenerator(), ...(options.parsers === undefined ? {} : { parsers: options.parsers }) },
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
