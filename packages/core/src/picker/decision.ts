import type { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint } from '../endpoints/types.js';
import type { AdmissionGrant } from '../admission/types.js';
import type { SchedulerMetrics } from '../observability/metrics.js';
import type { RequestSeries } from '../observability/request-series.js';
import type { Plugin, RequestLifecycle, RequestOutcome, ResponseMetadata, ResponseStartInfo, SchedulingResult, Usage } from '../scheduling/plugins.js';
import type { SchedulingRequest } from '../scheduling/request.js';
import type { Clock } from '../clock/clock.js';
import type { DecisionTrace } from '../scheduling/trace.js';
import type { Decision } from './types.js';
import { llmdErrorCode } from '../observability/error-code.js';

const NO_FALLBACKS: readonly Endpoint[] = Object.freeze([]);

/**
 * What every decision of one picker shares. One instance per picker: a per-request object literal
 * here would live as long as the response and invite V8 to pretenure it (see docs/performance.md).
 * @internal
 */
export class DecisionShared {
  constructor(
    readonly pool: EndpointPool,
    readonly clock: Clock,
    readonly lifecycle: readonly (Plugin & RequestLifecycle)[],
    readonly metrics: SchedulerMetrics | undefined,
    readonly onHookError: ((plugin: Plugin, hook: string, error: unknown) => void) | undefined,
  ) {}
}

/**
 * A plain header record for objects that live as long as a request (a decision's headers, the
 * forwarded request's headers). A class instance rather than `{}`: it references per-request
 * strings, and V8 may pretenure a literal's allocation site, after which those strings survive
 * every scavenge until the next full GC (see docs/performance.md, "Pretenuring"). Headers added in
 * the same order on every request keep one hidden class.
 * @example
 * ```ts
 * const headers: Record<string, string> = new HeaderRecord();
 * headers['x-gateway-destination-endpoint'] = '10.0.0.1:8000';
 * ```
 * @public
 * @category EndpointPicker façade
 */
export class HeaderRecord {
  [name: string]: string;
}

/**
 * What the picker computed for one request.
 * @internal
 */
export interface DecisionInit {
  readonly request: SchedulingRequest;
  readonly targets: readonly Endpoint[];
  readonly result: SchedulingResult;
  readonly headers: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly trace: DecisionTrace | undefined;
  /** Tokens accounted as in flight on the serving endpoint. */
  readonly tokens: number;
}

/**
 * The {@link Decision} returned by `EndpointPicker.pick`. It owns the request's in-flight
 * accounting (one request and `tokens` on the serving endpoint, moved when the gateway falls
 * back) and its admission grant; `complete` gives both back exactly once and later calls are
 * ignored. Plugin hook errors never break the accounting: they are reported and swallowed.
 * @internal
 */
export class PickDecision implements Decision {
  readonly request: SchedulingRequest;
  readonly primary: Endpoint;
  readonly targets: readonly Endpoint[];
  readonly result: SchedulingResult;
  readonly headers: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly trace: DecisionTrace | undefined;
  readonly #shared: DecisionShared;
  readonly #grant: AdmissionGrant;
  /** The request's bound metric series (set exactly when metrics are on). */
  readonly #series: RequestSeries | undefined;
  readonly #tokens: number;
  #serving: Endpoint;
  #done = false;
  #usage: Usage | undefined;
  /** Clock time (ms) of the first non-empty response chunk, or -1 before it. */
  #firstChunkAt = -1;
  /** Clock time (ms) of the latest non-empty response chunk. */
  #lastChunkAt = -1;
  /** Response body bytes seen. */
  #responseBytes = 0;
  /** The adapter's own response handling so far, ms. */
  #responseProcessingMs = 0;

  constructor(init: DecisionInit, shared: DecisionShared, grant: AdmissionGrant, series: RequestSeries | undefined) {
    this.request = init.request;
    this.primary = init.targets[0] as Endpoint;
    this.targets = init.targets;
    this.result = init.result;
    this.headers = init.headers;
    this.responseHeaders = init.responseHeaders;
    this.body = init.body;
    this.trace = init.trace;
    this.#shared = shared;
    this.#grant = grant;
    this.#series = series;
    this.#tokens = init.tokens;
    this.#serving = this.primary;
    shared.pool.addInFlight(this.primary.id, 1, init.tokens);
    series?.running.inc();
  }

  /** Targets after the primary, built when asked for: forwarders read `targets`. */
  get fallbacks(): readonly Endpoint[] {
    return this.targets.length > 1 ? this.targets.slice(1) : NO_FALLBACKS;
  }

  /** Model name the client asked for. */
  get clientModel(): string {
    return this.request.request.model;
  }

  /** Aborts when admission revokes the request. */
  get revoked(): AbortSignal | undefined {
    return this.#grant.revoked;
  }

  /** True once {@link PickDecision.complete} ran. */
  get completed(): boolean {
    return this.#done;
  }

  onResponseStart(info: ResponseStartInfo): void {
    if (this.#done) return;
    if (info.endpoint.id !== this.#serving.id) {
      // The gateway fell back: move the in-flight load to the endpoint that actually serves.
      this.#shared.pool.addInFlight(this.#serving.id, -1, -this.#tokens);
      this.#shared.pool.addInFlight(info.endpoint.id, 1, this.#tokens);
      this.#serving = info.endpoint;
    }
    for (const p of this.#shared.lifecycle) {
      if (p.onResponseStart === undefined) continue;
      try {
        p.onResponseStart(this.request, info);
      } catch (error) {
        this.#shared.onHookError?.(p, 'onResponseStart', error);
      }
    }
  }

  onUsage(usage: Usage): void {
    if (this.#done) return;
    this.#usage = usage;
    for (const p of this.#shared.lifecycle) {
      if (p.onUsage === undefined) continue;
      try {
        p.onUsage(this.request, usage, this.#serving);
      } catch (error) {
        this.#shared.onHookError?.(p, 'onUsage', error);
      }
    }
  }

  onResponseBody(usage: Usage | undefined): ResponseMetadata | undefined {
    if (this.#done) return undefined;
    let metadata: ResponseMetadata | undefined;
    for (const p of this.#shared.lifecycle) {
      if (p.onResponseBody === undefined) continue;
      // Built only when a plugin has the hook: most configs have none.
      metadata ??= {};
      try {
        p.onResponseBody(this.request, { endpoint: this.#serving, usage, dynamicMetadata: metadata });
      } catch (error) {
        this.#shared.onHookError?.(p, 'onResponseBody', error);
      }
    }
    return metadata === undefined || Object.keys(metadata).length === 0 ? undefined : metadata;
  }

  onResponseChunk(bytes: number): void {
    if (this.#done || bytes <= 0) return;
    this.#responseBytes += bytes;
    const s = this.#series;
    if (s === undefined) return;
    // llm-d's moments: TTFT at the first non-empty chunk, ITL between consecutive ones (streams).
    const now = this.#shared.clock.now();
    if (this.#firstChunkAt < 0) {
      this.#firstChunkAt = now;
      const ttft = Math.max(0, now - this.request.receivedAt) / 1000;
      (this.request.request.stream ? s.ttftStreaming : s.ttftUnary).observe(ttft);
    } else if (this.request.request.stream) {
      s.streamingItl.observe(Math.max(0, now - this.#lastChunkAt) / 1000);
    }
    this.#lastChunkAt = now;
  }

  onResponseProcessing(ms: number): void {
    if (!this.#done && ms > 0) this.#responseProcessingMs += ms;
  }

  complete(outcome: RequestOutcome): void {
    if (this.#done) return;
    this.#done = true;
    const shared = this.#shared;
    shared.pool.addInFlight(this.#serving.id, -1, -this.#tokens);
    try {
      this.#grant.release(outcome);
    } finally {
      for (const p of shared.lifecycle) {
        if (p.onComplete === undefined) continue;
        try {
          p.onComplete(this.request, outcome, this.#serving);
        } catch (error) {
          shared.onHookError?.(p, 'onComplete', error);
        }
      }
      this.#record(outcome);
    }
  }

  #record(outcome: RequestOutcome): void {
    const m = this.#shared.metrics;
    const s = this.#series;
    if (m === undefined || s === undefined) return;
    s.running.dec();
    const e2eMs = Math.max(0, this.#shared.clock.now() - this.request.receivedAt);
    s.duration.observe(e2eMs / 1000);
    if (this.#responseBytes > 0) s.responseSize.observe(this.#responseBytes);
    // As llm-d: at the end of the stream, only when the adapter spent measurable time on it.
    if (this.#responseProcessingMs > 0) m.responseProcessing.observe(this.#responseProcessingMs / 1000);
    const usage = this.#usage ?? (outcome.kind === 'success' ? outcome.usage : undefined);
    if (usage !== undefined) {
      const completion = usage.completionTokens;
      // As llm-d: token histograms only record positive counts; cached tokens whenever reported.
      if (usage.promptTokens > 0) s.inputTokens.observe(usage.promptTokens);
      if (completion > 0) {
        s.outputTokens.observe(completion);
        s.ntpot.observe(e2eMs / 1000 / completion);
      }
      if (usage.cachedTokens !== undefined) s.cachedTokens.observe(usage.cachedTokens);
      if (this.request.request.stream && completion > 1 && this.#firstChunkAt >= 0) {
        s.streamingTpot.observe(Math.max(0, e2eMs - (this.#firstChunkAt - this.request.receivedAt)) / 1000 / (completion - 1));
      }
    }
    if (outcome.kind !== 'success') {
      const [model, target, fairness, priority] = s.labels;
      const code = outcome.kind === 'cancelled' ? llmdErrorCode({ cancelled: true }) : llmdErrorCode(outcome.error === undefined ? { upstreamStatus: outcome.status ?? 0 } : { error: outcome.error });
      m.requestErrorTotal.labels(model, target, fairness, priority, code).inc();
    }
  }
}
