import { z } from 'zod';
import { consoleSettingsSchema, sharedStateSectionSchema } from '@switchyard/core';
import { GATEWAY_DEFAULTS } from '../gateway/defaults.js';
import { GATEWAY_SECTION_DEFAULTS } from './section-defaults.js';

const positiveMs = z.number().positive();

/**
 * An endpoint as written in the gateway section: `ip:port` or an object with id, labels and
 * metrics port.
 * @public
 * @category Config
 */
export const gatewayEndpointSchema = z.union([
  z.string().min(1),
  z.strictObject({
    id: z.string().min(1).optional(),
    address: z.string().min(1),
    labels: z.record(z.string(), z.string()).optional(),
    metricsPort: z.number().int().min(1).max(65535).optional(),
  }),
]);

const poolSchema = z.strictObject({
  /** Pool name (metrics label, `/v1/models` owner). */
  name: z.string().min(1),
  /** Endpoints of the pool. */
  endpoints: z.array(gatewayEndpointSchema).default([]),
  /** Model and LoRA adapter names the pool serves (globally unique). */
  models: z.array(z.string().min(1)).default([]),
  /**
   * The pool's own EndpointPickerConfig: a file path (relative to the main config file) or an
   * inline document. Default: the main document's scheduling configuration.
   */
  config: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
});

const routeSchema = z.strictObject({
  name: z.string().min(1),
  split: z
    .array(z.strictObject({ pool: z.string().min(1), weight: z.number().positive(), model: z.string().min(1).optional() }))
    .min(1),
});

/**
 * The `gateway` section Switchyard adds to an llm-d EndpointPickerConfig document. It is removed
 * before the llm-d loader sees the document, so the rest loads as is.
 * @public
 * @category Config
 */
export const gatewaySectionSchema = z
  .strictObject({
    /** Where the CLI listens. */
    listen: z
      .strictObject({ port: z.number().int().min(0).max(65535).default(GATEWAY_SECTION_DEFAULTS.listen.port), host: z.string().min(1).default(GATEWAY_SECTION_DEFAULTS.listen.host) })
      .prefault({}),
    /**
     * Serve `/metrics` on this separate listener (an internal port) instead of the client port:
     * the metrics name models and tenants (fairness ids) with their volumes.
     */
    metricsListen: z.strictObject({ port: z.number().int().min(0).max(65535), host: z.string().min(1).default('127.0.0.1') }).optional(),
    // The handler's options: their defaults and range rules are `GATEWAY_DEFAULTS` and
    // `resolveGatewayOptions`, which `splitConfig` applies to the section (one validation path).
    /** Largest request body, bytes. */
    maxBodyBytes: z.number().optional(),
    /** Time allowed for a whole request body (408 after). */
    bodyReadTimeoutMs: z.number().optional(),
    /** Longest silence between request-body chunks (408 after). */
    bodyIdleTimeoutMs: z.number().optional(),
    /** Most bytes of request bodies being read at once (503 over it). */
    maxBufferedBodyBytes: z.number().optional(),
    /** Deepest nesting of arrays/objects in a request body. */
    maxJsonDepth: z.number().optional(),
    /** Scheduler failure handling. */
    failureMode: z.enum(['FailClose', 'FailOpen']).default(GATEWAY_DEFAULTS.failureMode),
    /** Trust boundary for `x-llm-d-*` classification headers. */
    trust: z
      .strictObject({
        /** Honour classification headers from every client (only behind a trusted proxy); unset: `GATEWAY_DEFAULTS.trustClassificationHeaders`. */
        classificationHeaders: z.boolean().optional(),
        /** Honour them from these client addresses only (IPs or IPv4 CIDRs). */
        trustedClients: z.array(z.string().min(1)).default([]),
      })
      .prefault({}),
    /** Upstream connections. */
    upstream: z
      .strictObject({
        maxAttempts: z.number().optional(),
        connectTimeoutMs: z.number().optional(),
        headersTimeoutMs: z.number().optional(),
        bodyTimeoutMs: z.number().optional(),
        connectionsPerEndpoint: z.number().optional(),
        keepAliveTimeoutMs: z.number().optional(),
      })
      .prefault({}),
    /**
     * Circuit breaker taking failing endpoints out of rotation. Its numbers are `EndpointRotation`'s
     * options: defaults and rules are `ENDPOINT_ROTATION_DEFAULTS` and the rotation's, which
     * `splitConfig` applies to the section (one validation path).
     */
    circuitBreaker: z
      .strictObject({
        enabled: z.boolean().default(GATEWAY_SECTION_DEFAULTS.circuitBreaker.enabled),
        failureThreshold: z.number().optional(),
        cooldownMs: z.number().optional(),
        probeAfterMs: z.number().optional(),
        minInRotation: z.number().optional(),
      })
      .prefault({}),
    /**
     * Model-server metrics scraping. Without `scrapeIntervalMs` the pool's llm-d config decides
     * (its `metrics-data-source` `interval`, else every 50 ms); path, port and engine mappings
     * always come from that config's data layer.
     */
    metrics: z.strictObject({ scrapeIntervalMs: z.number().min(50).optional(), scrapeTimeoutMs: positiveMs.default(1000) }).prefault({}),
    /** The operator console at `/console` (off by default: it shows tenants and models). */
    console: consoleSettingsSchema,
    /** Shutdown grace period for requests being forwarded; unset: `GATEWAY_CLOSE_DEFAULTS.graceMs`. */
    shutdownGraceMs: z.number().optional(),
    /** Single-pool shorthand: the endpoints (every model goes to them). */
    endpoints: z.array(gatewayEndpointSchema).optional(),
    /** Multi-model: pools with the models they serve. */
    pools: z.array(poolSchema).optional(),
    /** Multi-model: weighted splits across pools. */
    routes: z.array(routeSchema).default([]),
    /**
     * Shared state with the other gateway replicas on Redis (`redisUrl`, `syncInterval`,
     * `maxStaleness`, `keyPrefix`, `replicaId`); `--redis-url` overrides `redisUrl`. Without it
     * the document's `switchyard.sharedState` applies (the EPP's key), so one file serves both.
     */
    sharedState: sharedStateSectionSchema.optional(),
  })
  .superRefine((g, ctx) => {
    if (g.endpoints !== undefined && g.pools !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['endpoints'], message: 'give either endpoints (one pool) or pools (multi-model), not both' });
    }
    if (g.routes.length > 0 && g.pools === undefined) {
      ctx.addIssue({ code: 'custom', path: ['routes'], message: 'routes need pools' });
    }
  });

/**
 * The `gateway` section after validation and defaulting.
 * @public
 * @category Config
 */
export type GatewaySection = z.output<typeof gatewaySectionSchema>;

/**
 * The `gateway` section as written.
 * @public
 * @category Config
 */
export type GatewaySectionInput = z.input<typeof gatewaySectionSchema>;

/**
 * An endpoint entry of the gateway section.
 * @public
 * @category Config
 */
export type GatewayEndpointInput = z.output<typeof gatewayEndpointSchema>;
