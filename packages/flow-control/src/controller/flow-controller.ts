import {
  SwitchyardError,
  systemClock,
  type AdmissionController,
  type AdmissionGrant,
  type Clock,
  type EndpointPool,
  type PoolSaturation,
  type RequestOutcome,
  type SchedulingRequest,
} from '@switchyard/core';
import { EventEmitter } from 'eventemitter3';
import { parseFlowControlConfig } from '../config/parse.js';
import type { FlowControlConfig } from '../config/types.js';
import { FlowControlMetrics, type EnqueueOutcome, type QueueOutcome } from '../metrics/flow-metrics.js';
import { ModelOutcomeCache } from '../metrics/model-outcome-cache.js';
import { formatDuration } from '../units/duration.js';
import { makeRoomFairly } from './admission-shares.js';
import { Dispatcher } from './dispatcher.js';
import type { FlowControllerEvents } from './events.js';
import { createEvictor, type Evictor } from './eviction.js';
import type { Flow } from './flow.js';
import { SaturationGate } from './gate.js';
import { defaultEstimate } from './options.js';
import { bandFairness, bandStats, flowStats, metricsSource, type FlowControllerStats, type FlowStats } from './introspection.js';
import { FlowItem, ItemState, NEVER } from './item.js';
import type { AdmitOptions, FlowControllerOptions } from './options.js';
import { QueueSet } from './queues.js';

const DEFAULT_FLOW = 'default-flow';

/**
 * The queueing admission controller. Requests wait in per-FlowKey queues inside the gateway while
 * the pool is saturated and are dispatched in strict band order, by the band's fairness policy
 * across flows and its ordering policy within a flow, whenever the saturation gate is below the
 * band's ceiling. Dispatch is event-driven and drains as much as the gate allows in one pass (see
 * docs/flow-control.md). Create one with {@link createFlowController}.
 * @public
 * @category Controller
 */
export class FlowController extends EventEmitter<FlowControllerEvents> implements AdmissionController {
  /** The resolved configuration. */
  readonly config: FlowControlConfig;
  /** Metrics recorder (undefined when disabled). */
  readonly metrics: FlowControlMetrics | undefined;
  readonly #pool: EndpointPool;
  readonly #clock: Clock;
  readonly #gate: SaturationGate;
  readonly #queues: QueueSet;
  readonly #dispatcher: Dispatcher;
  readonly #evictor: Evictor | undefined;
  readonly #estimate: (r: SchedulingRequest) => number;
  readonly #onPoolChange = (): void => {
    this.#queues.checkFlip();
    this.#dispatcher.schedule();
  };
  readonly #onPoolMetrics = (): void => {
    this.#dispatcher.schedule();
  };
  #seq = 0;
  #outstanding = 0;
  #outstandingTokens = 0;
  #closing: Promise<void> | undefined;
  #resolveClosed: (() => void) | undefined;

  /** Prefer {@link createFlowController}. */
  constructor(options: FlowControllerOptions) {
    super();
    this.#pool = options.pool;
    this.#clock = options.clock ?? systemClock;
    this.config = parseFlowControlConfig(options.config, options.plugins, { clock: this.#clock });
    this.#estimate = options.estimateTokens ?? defaultEstimate;
    this.#gate = new SaturationGate(this.#pool, options.detector ?? this.config.detector, this.#clock);
    this.#queues = new QueueSet(this.config, this.#clock, this.#pool, {
      bandCreated: (b) => this.emit('bandCreated', b.priority),
      bandRemoved: (b) => this.emit('bandRemoved', b.priority),
      flowCreated: (f) => this.emit('flowCreated', f.fairnessId, f.priority),
      flowRemoved: (f) => this.emit('flowRemoved', f.fairnessId, f.priority),
      onRelease: (item, outcome) => {
        this.#release(item, outcome);
      },
      expire: (item) => {
        this.#expire(item);
      },
      abort: (item) => {
        this.#cancel(item);
      },
    });
    this.#dispatcher = new Dispatcher(this.#queues, options.usageLimitPolicy ?? this.config.usageLimitPolicy, this.#clock, {
      saturation: () => this.saturation(),
      grant: (item, now) => {
        this.#grant(item, now);
      },
      blocked: (band, saturation, ceiling, changed) => {
        if (changed) this.emit('blocked', band.priority, saturation, ceiling);
        if (this.#evictor === undefined) return;
        // The capacity the blocked band asks back, in saturation units (llm-d's reclaim target).
        this.metrics?.reclaimTarget(saturation - ceiling);
        this.#evictor.evictFor(band.priority);
      },
      unblocked: () => this.emit('unblocked'),
      cycle: (seconds) => this.metrics?.dispatchCycle(seconds),
    });
    const m = options.metrics;
    this.metrics = m === false ? undefined : m instanceof FlowControlMetrics ? m : new FlowControlMetrics(m);
    this.metrics?.bind(metricsSource(this.#queues.table, () => this.saturationByStage(), this.config));
    this.#evictor = this.config.enableEviction ? createEvictor(this.config, this.#clock, this.metrics, this) : undefined;
    this.#pool.on('metrics', this.#onPoolMetrics).on('updated', this.#onPoolMetrics).on('added', this.#onPoolChange).on('removed', this.#onPoolChange);
  }

  /**
   * Admits a request: resolves with a grant when it may be scheduled (at once when nothing waits
   * and the pool is below the band's ceiling), or rejects with a SwitchyardError of the contract:
   * 429 `REJECTED_SATURATED` (queue full), 503 `REJECTED_NO_ENDPOINTS` (queue full or TTL expired
   * with an empty pool), 429 `REJECTED_TTL_EXPIRED`, 503 `REJECTED_CONTEXT_CANCELLED`,
   * 503 `REJECTED_SHUTTING_DOWN`. The grant must be released exactly once.
   */
  admit(request: SchedulingRequest, options: AdmitOptions = {}): Promise<AdmissionGrant> {
    const start = this.#clock.now();
    if (this.#closing !== undefined) {
      return this.#refuse(request, undefined, 'RejectedOther', new SwitchyardError('REJECTED_SHUTTING_DOWN', 'flow controller is shutting down'), start);
    }
    const signal = options.signal;
    if (signal?.aborted === true) {
      return this.#refuse(request, undefined, 'RejectedOther', new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'request was cancelled before admission'), start);
    }
    const item = this.#item(request, options);
    if (this.#passThrough(item)) {
      this.#passedThrough(item, start);
      return Promise.resolve(item);
    }

    const table = this.#queues.table;
    const band = item.flow.band;
    let verdict = table.admits(band, item.byteSize);
    if (verdict !== 'ok' && this.config.admissionShares) verdict = makeRoomFairly(item, verdict, table, this.#displace);
    if (verdict !== 'ok') {
      const where = verdict === 'band' ? `band ${band.priority} (maxRequests ${band.settings.maxRequests}, maxBytes ${band.settings.maxBytes})` : 'the global limits';
      return this.#pool.size === 0
        ? this.#refuse(request, item.flow, 'RejectedNoEndpoints', new SwitchyardError('REJECTED_NO_ENDPOINTS', `no endpoints available and the queue of ${where} is full`), start)
        : this.#refuse(request, item.flow, 'RejectedCapacity', new SwitchyardError('REJECTED_SATURATED', `flow control queue full: ${where}`), start);
    }
    const promise = new Promise<AdmissionGrant>((resolve) => {
      item.resolve = resolve;
    });
    this.#queues.enqueue(item);
    if (signal !== undefined) this.#queues.watch(item, signal);
    this.#handedOff(item.flow, 'NotYetFinalized', start);
    this.emit('enqueued', item);
    this.#dispatcher.pass();
    return promise;
  }

  /**
   * The pass-through part of {@link FlowController.admit}, without a promise: the grant when
   * nothing is queued and the gate is open for the request's band, else undefined (then `admit`
   * queues or refuses it).
   */
  admitNow(request: SchedulingRequest): AdmissionGrant | undefined {
    // Checked before building the item, which would otherwise be thrown away whenever anything waits.
    if (this.#closing !== undefined || !this.#nothingWaits()) return undefined;
    const start = this.#clock.now();
    const item = this.#item(request, {});
    if (!this.#passThrough(item)) return undefined;
    this.#passedThrough(item, start);
    return item;
  }

  /** A request granted at once: counted as dispatched, and its band's fairness policy told. */
  #passedThrough(item: FlowItem, start: number): void {
    this.#handedOff(item.flow, 'Dispatched', start);
    item.flow.band.selector.passedThrough?.(item.flow, item);
  }

  /** `request_enqueue_duration_seconds`: admission started at `start` and ended in the queue or with `outcome` at once. */
  #handedOff(flow: Flow | undefined, outcome: EnqueueOutcome, start: number, request?: SchedulingRequest): void {
    const m = this.metrics;
    if (m === undefined) return;
    const fairnessId = flow?.fairnessId ?? (request === undefined || request.fairnessId === '' ? DEFAULT_FLOW : request.fairnessId);
    m.enqueued(flow?.enqueueCache ?? [], fairnessId, flow?.priority ?? request?.priority ?? 0, outcome, (this.#clock.now() - start) / 1000);
  }

  /** True when no request is queued and no dispatch pass is running: a new one overtakes no one. */
  #nothingWaits(): boolean {
    return this.#queues.table.totalRequests === 0 && !this.#dispatcher.inPass;
  }

  /** The queue item of a request (its band, flow, size estimate and TTL). */
  #item(request: SchedulingRequest, options: AdmitOptions): FlowItem {
    const table = this.#queues.table;
    // Objectives carry int32 priorities; anything else (NaN from a bad integration) goes to band 0.
    const band = table.band(Number.isFinite(request.priority) ? request.priority : 0);
    const flow = table.flow(band, request.fairnessId === '' ? DEFAULT_FLOW : request.fairnessId);
    // Whole milliseconds (rounded up, so a TTL never ends early) keep the item's time fields small integers.
    const now = Math.ceil(this.#clock.now());
    const ttl = options.ttlMs ?? band.settings.requestTtlMs ?? this.config.defaultRequestTtlMs;
    return new FlowItem(flow, request, this.#seq++, now, this.#estimate(request), ttl > 0 ? ttl : 0, options.deadline ?? NEVER);
  }

  /**
   * Grants `item` at once when nothing is queued anywhere (it overtakes no one) and the gate is
   * open for its band.
   */
  #passThrough(item: FlowItem): boolean {
    if (!this.#nothingWaits()) return false;
    const exactNow = this.#clock.now();
    const saturation = this.#gate.value(this.#outstanding, this.#outstandingTokens, exactNow);
    if (saturation >= this.#dispatcher.ceiling(item.flow.band, saturation)) return false;
    const now = Math.ceil(exactNow);
    this.#queues.table.used(item.flow, now);
    this.#grant(item, now);
    return true;
  }

  /**
   * Stops admitting (new requests get 503 `rejected-shutting-down`), answers every queued request
   * the same way, and resolves once every granted request has been released.
   */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    this.#closing = new Promise<void>((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.#pool.off('metrics', this.#onPoolMetrics).off('updated', this.#onPoolMetrics).off('added', this.#onPoolChange).off('removed', this.#onPoolChange);
    for (const item of this.#queues.items()) {
      this.#queues.unqueue(item);
      this.#finalize(item, 'EvictedOther', new SwitchyardError('REJECTED_SHUTTING_DOWN', 'flow controller is shutting down'));
      this.emit('drained', item, this.#waited(item, this.#clock.now()));
    }
    this.#queues.close();
    this.#maybeClosed();
    return this.#closing;
  }

  /** Current gate value: max over stages, counting grants not yet visible on endpoints. */
  saturation(): number {
    return this.#gate.value(this.#outstanding, this.#outstandingTokens, this.#clock.now());
  }

  /** Current saturation per stage. */
  saturationByStage(): PoolSaturation {
    return this.#gate.stages(this.#outstanding, this.#outstandingTokens);
  }

  /** Jain's index of tokens dispatched across the flows of a band since the last metrics scrape. */
  fairnessIndex(priority: number): number {
    const band = this.#queues.table.bands.find((b) => b.priority === priority);
    return band === undefined ? 1 : bandFairness(band);
  }

  /**
   * The live flows of every band, highest priority first, with the head request's enqueue time
   * (the oldest wait under FCFS ordering). Walks every flow: for consoles, not per request.
   */
  flowStats(): FlowStats[] {
    return this.#queues.table.bands.flatMap(flowStats);
  }

  /** A snapshot of queues, grants and bands. */
  stats(): FlowControllerStats {
    const table = this.#queues.table;
    return {
      queuedRequests: table.totalRequests,
      queuedBytes: table.totalBytes,
      inFlightRequests: this.#outstanding,
      inFlightTokens: this.#outstandingTokens,
      pendingRevocations: this.#evictor?.pending ?? 0,
      expiringRequests: this.#queues.ttl.size,
      bands: table.bands.map(bandStats),
      closed: this.#closing !== undefined,
    };
  }

  #release(item: FlowItem, outcome: RequestOutcome): void {
    if (item.state !== ItemState.Dispatched && item.state !== ItemState.Revoked) return;
    const wasRevoked = item.state === ItemState.Revoked;
    item.state = ItemState.Released;
    this.#outstanding--;
    this.#outstandingTokens -= item.tokens;
    if (this.#evictor !== undefined && item.evict !== undefined) {
      if (wasRevoked) this.#evictor.released(item);
      else this.#evictor.remove(item);
    }
    if (outcome.kind === 'success' && outcome.usage !== undefined && !item.flow.removed) {
      item.flow.band.selector.settle?.(item.flow, item.tokens, outcome.usage.promptTokens + outcome.usage.completionTokens, outcome.usage);
    }
    this.emit('released', item, outcome);
    this.#dispatcher.schedule();
    this.#maybeClosed();
  }

  #cancel(item: FlowItem): void {
    if (item.state !== ItemState.Queued) return;
    this.#queues.unqueue(item);
    this.#finalize(item, 'EvictedContextCancelled', new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'request cancelled by the caller while queued'));
    this.emit('cancelled', item, this.#waited(item, this.#clock.now()));
    this.#dispatcher.schedule();
  }

  #expire(item: FlowItem): void {
    if (item.state !== ItemState.Queued) return;
    this.#queues.unqueue(item);
    const waited = this.#waited(item, this.#clock.now());
    const error =
      this.#pool.size === 0
        ? new SwitchyardError('REJECTED_NO_ENDPOINTS', `request timed out in queue after ${formatDuration(waited)} and no endpoints are available`)
        : new SwitchyardError('REJECTED_TTL_EXPIRED', `request timed out in queue after ${formatDuration(waited)}`);
    this.#finalize(item, 'EvictedTTL', error);
    this.emit('expired', item, waited, error);
    this.#dispatcher.schedule();
  }

  /** Answers a queued request whose place a flow under its fair share of the band took. */
  readonly #displace = (victim: FlowItem, by: FlowItem): void => {
    this.#queues.unqueue(victim);
    const error = new SwitchyardError('REJECTED_SATURATED', `flow control queue full: band ${victim.flow.priority} is shared per flow, and flow "${victim.flow.fairnessId}" held more than its share when "${by.flow.fairnessId}" arrived`);
    this.#finalize(victim, 'EvictedOther', error);
    this.emit('displaced', victim, this.#waited(victim, this.#clock.now()), error);
  };

  #refuse(request: SchedulingRequest, flow: Flow | undefined, outcome: QueueOutcome, error: SwitchyardError, start: number): Promise<AdmissionGrant> {
    this.metrics?.outcome(flow?.metricCache ?? new ModelOutcomeCache(), request.fairnessId === '' ? DEFAULT_FLOW : request.fairnessId, request.priority, outcome, 0, request.request.model, request.targetModel);
    this.#handedOff(flow, outcome, start, request);
    this.emit('rejected', request, outcome, error);
    this.emit('outcome', request, outcome, 0);
    return Promise.reject(error);
  }

  #grant(item: FlowItem, now: number): void {
    const flow = item.flow;
    item.state = ItemState.Dispatched;
    this.#outstanding++;
    this.#outstandingTokens += item.tokens;
    flow.served += item.tokens;
    if (this.#evictor?.eligible(flow.band.priority, now, item.seq) === true) {
      const controller = new AbortController();
      item.evict = { controller, dispatchedAt: now, prev: undefined, next: undefined, reclaimTimer: undefined, revokedAt: 0 };
      item.revoked = controller.signal;
      this.#evictor.add(item);
    }
    const waited = this.#waited(item, now);
    this.metrics?.outcome(flow.metricCache, flow.fairnessId, flow.priority, 'Dispatched', waited / 1000, item.request.request.model, item.request.targetModel);
    this.emit('dispatched', item, waited);
    this.emit('outcome', item.request, 'Dispatched', waited);
    const resolve = item.resolve;
    item.resolve = undefined;
    resolve?.(item);
  }

  #finalize(item: FlowItem, outcome: QueueOutcome, error: SwitchyardError): void {
    item.state = ItemState.Finalized;
    const waited = this.#waited(item, this.#clock.now());
    this.metrics?.outcome(item.flow.metricCache, item.flow.fairnessId, item.flow.priority, outcome, waited / 1000, item.request.request.model, item.request.targetModel);
    this.emit('outcome', item.request, outcome, waited);
    const resolve = item.resolve;
    item.resolve = undefined;
    resolve?.(Promise.reject(error));
  }

  /** Queue time; enqueue times are rounded up to whole ms, so clamp the sub-millisecond case at 0. */
  #waited(item: FlowItem, now: number): number {
    return Math.max(0, now - item.enqueuedAt);
  }

  #maybeClosed(): void {
    if (this.#resolveClosed === undefined || this.#outstanding > 0 || this.#queues.table.totalRequests > 0) return;
    const done = this.#resolveClosed;
    this.#resolveClosed = undefined;
    this.emit('closed');
    done();
  }
}
