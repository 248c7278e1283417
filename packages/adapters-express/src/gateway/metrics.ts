import { Registry } from 'prom-client';
import { FastCounter, FastGauge, FastHistogram } from '@switchyard/core';

/**
 * Route label of `switchyard_gateway_requests_total`.
 * @public
 * @category Metrics
 */
export type GatewayRoute = 'inference' | 'models' | 'healthz' | 'readyz' | 'metrics' | 'unknown';

/**
 * A counter child bound to its labels.
 * @public
 * @category Metrics
 */
export interface BoundCounter {
  /** Adds `value` (default 1). */
  inc(value?: number): void;
}

/**
 * A gauge child bound to its labels.
 * @public
 * @category Metrics
 */
export interface BoundGauge {
  /** Adds 1. */
  inc(): void;
  /** Subtracts 1. */
  dec(): void;
}

/**
 * A histogram child bound to its labels.
 * @public
 * @category Metrics
 */
export interface BoundHistogram {
  /** Records one value. */
  observe(value: number): void;
}

/**
 * The per-request metrics of one pool, with labels bound once (no label hashing per request).
 * @public
 * @category Metrics
 */
export interface PoolMetrics {
  /** `switchyard_gateway_scheduling_requests{pool}`. */
  readonly scheduling: BoundGauge;
  /** `switchyard_gateway_scheduling_duration_seconds{pool}`. */
  readonly schedulingDuration: BoundHistogram;
  /** `switchyard_gateway_in_flight_requests{pool}`. */
  readonly inFlight: BoundGauge;
  /** `switchyard_gateway_upstream_header_duration_seconds{pool}`. */
  readonly upstreamHeaderDuration: BoundHistogram;
  /** `switchyard_gateway_request_duration_seconds{pool}`. */
  readonly requestDuration: BoundHistogram;
  /** `switchyard_gateway_retries_total{pool}`. */
  readonly retries: BoundCounter;
  /** `switchyard_gateway_upstream_attempts_total{pool,result="ok"}`. */
  readonly attemptsOk: BoundCounter;
  /** `switchyard_gateway_tokens_total{pool,kind="prompt"}`. */
  readonly promptTokens: BoundCounter;
  /** `switchyard_gateway_tokens_total{pool,kind="completion"}`. */
  readonly completionTokens: BoundCounter;
  /** `switchyard_gateway_tokens_total{pool,kind="cached"}`. */
  readonly cachedTokens: BoundCounter;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * The gateway's own Prometheus metrics (`switchyard_gateway_*`), registered in one prom-client
 * registry. They are `FastCounter`-style (`@switchyard/core`) metrics: labels are bound once per pool, so the
 * hot path records with plain field updates. Scheduler and flow-control metrics (`llm_d_epp_*`) come from their own components and
 * are served together on `/metrics`.
 * @public
 * @category Metrics
 */
export class GatewayMetrics {
  /** Registry holding these metrics. */
  readonly registry: Registry;
  /** HTTP requests answered, by route and status code. */
  readonly requests: FastCounter<'route' | 'code'>;
  /** Inference request duration, body read to last byte. */
  readonly requestDuration: FastHistogram<'pool'>;
  /** Time from a complete request body to a scheduling decision (queueing included). */
  readonly schedulingDuration: FastHistogram<'pool'>;
  /** Time from dispatch to the upstream response head. */
  readonly upstreamHeaderDuration: FastHistogram<'pool'>;
  /** Upstream attempts by result (`ok` or the failure kind). */
  readonly upstreamAttempts: FastCounter<'pool' | 'result'>;
  /** Attempts beyond the first (retries down the fallbacks). */
  readonly retries: FastCounter<'pool'>;
  /** Requests being forwarded. */
  readonly inFlight: FastGauge<'pool'>;
  /** Requests waiting for a scheduling decision (including flow-control queueing). */
  readonly scheduling: FastGauge<'pool'>;
  /** Clients that went away, by stage. */
  readonly clientAborts: FastCounter<'stage'>;
  /** Scheduler failures handled by the failure mode. */
  readonly pickerFailures: FastCounter<'pool' | 'mode'>;
  /** Endpoints currently out of rotation (circuit open). */
  readonly outOfRotation: FastGauge<'pool'>;
  /** Circuit-breaker transitions. */
  readonly breakerTransitions: FastCounter<'pool' | 'state'>;
  /** Tokens reported by model servers. */
  readonly tokens: FastCounter<'pool' | 'kind'>;
  /** Bytes held by request bodies being read (bounded by `maxBufferedBodyBytes`). */
  readonly requestBodyBuffered: FastGauge;
  /** Failed polls of model servers' metrics, by reason (`timeout`, `unavailable`). */
  readonly scrapeErrors: FastCounter<'pool' | 'reason'>;

  readonly #pools = new Map<string, PoolMetrics>();
  /** Children of `requests` by route, then status code (no key string to build per request). */
  readonly #requestChildren = new Map<GatewayRoute, Map<number, BoundCounter>>();

  /** The bound per-request metrics of pool `name` (created on first use). */
  forPool(name: string): PoolMetrics {
    let m = this.#pools.get(name);
    if (m === undefined) {
      m = {
        scheduling: this.scheduling.labels(name),
        schedulingDuration: this.schedulingDuration.labels(name),
        inFlight: this.inFlight.labels(name),
        upstreamHeaderDuration: this.upstreamHeaderDuration.labels(name),
        requestDuration: this.requestDuration.labels(name),
        retries: this.retries.labels(name),
        attemptsOk: this.upstreamAttempts.labels(name, 'ok'),
        promptTokens: this.tokens.labels(name, 'prompt'),
        completionTokens: this.tokens.labels(name, 'completion'),
        cachedTokens: this.tokens.labels(name, 'cached'),
      };
      this.#pools.set(name, m);
    }
    return m;
  }

  /** Counts one answered request (children cached per route and code). */
  countRequest(route: GatewayRoute, code: number): void {
    let byCode = this.#requestChildren.get(route);
    if (byCode === undefined) {
      byCode = new Map();
      this.#requestChildren.set(route, byCode);
    }
    let c = byCode.get(code);
    if (c === undefined) {
      c = this.requests.labels(route, String(code));
      byCode.set(code, c);
    }
    c.inc();
  }

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    const registers = [registry];
    this.requests = new FastCounter({ name: 'switchyard_gateway_requests_total', help: 'HTTP requests answered by the gateway, by route and status code.', labelNames: ['route', 'code'], registers });
    this.requestDuration = new FastHistogram({ name: 'switchyard_gateway_request_duration_seconds', help: 'Inference request duration from complete body to last response byte.', labelNames: ['pool'], buckets: LATENCY_BUCKETS, registers });
    this.schedulingDuration = new FastHistogram({ name: 'switchyard_gateway_scheduling_duration_seconds', help: 'Time from a complete request body to a scheduling decision, queueing included.', labelNames: ['pool'], buckets: LATENCY_BUCKETS, registers });
    this.upstreamHeaderDuration = new FastHistogram({ name: 'switchyard_gateway_upstream_header_duration_seconds', help: 'Time from dispatch to the upstream response head.', labelNames: ['pool'], buckets: LATENCY_BUCKETS, registers });
    this.upstreamAttempts = new FastCounter({ name: 'switchyard_gateway_upstream_attempts_total', help: 'Upstream attempts by result (ok or failure kind).', labelNames: ['pool', 'result'], registers });
    this.retries = new FastCounter({ name: 'switchyard_gateway_retries_total', help: 'Upstream attempts beyond the first, down the decision fallbacks.', labelNames: ['pool'], registers });
    this.inFlight = new FastGauge({ name: 'switchyard_gateway_in_flight_requests', help: 'Requests being forwarded to a model server.', labelNames: ['pool'], registers });
    this.scheduling = new FastGauge({ name: 'switchyard_gateway_scheduling_requests', help: 'Requests waiting for a scheduling decision, flow-control queueing included.', labelNames: ['pool'], registers });
    this.clientAborts = new FastCounter({ name: 'switchyard_gateway_client_aborts_total', help: 'Clients that disconnected before their response was complete, by stage.', labelNames: ['stage'], registers });
    this.pickerFailures = new FastCounter({ name: 'switchyard_gateway_picker_failures_total', help: 'Scheduler failures handled by the failure mode (fail_open or fail_close).', labelNames: ['pool', 'mode'], registers });
    this.outOfRotation = new FastGauge({ name: 'switchyard_gateway_endpoints_out_of_rotation', help: 'Endpoints taken out of rotation by the circuit breaker.', labelNames: ['pool'], registers });
    this.breakerTransitions = new FastCounter({ name: 'switchyard_gateway_circuit_transitions_total', help: 'Circuit-breaker transitions by new state (open, half_open, closed).', labelNames: ['pool', 'state'], registers });
    this.tokens = new FastCounter({ name: 'switchyard_gateway_tokens_total', help: 'Tokens reported by model servers, by kind (prompt, completion, cached).', labelNames: ['pool', 'kind'], registers });
    this.requestBodyBuffered = new FastGauge({ name: 'switchyard_gateway_request_body_buffered_bytes', help: 'Bytes held by request bodies being read (capped by maxBufferedBodyBytes).', registers });
    this.scrapeErrors = new FastCounter({ name: 'switchyard_gateway_metrics_scrape_errors_total', help: "Failed polls of model servers' metrics, by reason (timeout, unavailable: refused, bad status, unparsable).", labelNames: ['pool', 'reason'], registers });
  }
}
