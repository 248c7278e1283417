import type { Clock, TimerHandle } from '@switchyard/core';
import type { FlowControlConfig } from '../config/types.js';
import { IdleList } from '../structures/idle-list.js';
import { Band, Flow } from './flow.js';
import type { ItemOwner } from './item.js';

/** Notifications of band/flow creation and collection. */
export interface BandTableHooks {
  /** A band was created on demand. */
  bandCreated(band: Band): void;
  /** An idle band was collected. */
  bandRemoved(band: Band): void;
  /** A flow was created on demand. */
  flowCreated(flow: Flow): void;
  /** An idle flow was collected. */
  flowRemoved(flow: Flow): void;
}

/** Why a request does not fit in the queue. */
export type CapacityVerdict = 'ok' | 'band' | 'global';

/**
 * The bands (highest priority first) and their flows: on-demand creation, queue counters,
 * capacity checks with reservations, and garbage collection of idle flows and bands.
 */
export class BandTable {
  /** Bands, highest priority first. */
  readonly bands: Band[] = [];
  totalRequests = 0;
  totalBytes = 0;
  /** Incremented whenever a band is created or collected (ceilings depend on the set of bands). */
  version = 0;
  readonly #byPriority = new Map<number, Band>();
  readonly #config: FlowControlConfig;
  readonly #clock: Clock;
  readonly #hooks: BandTableHooks;
  readonly #owner: ItemOwner;
  readonly #idleFlows = new IdleList<Flow>();
  readonly #idleBands = new IdleList<Band>();
  #gcTimer: TimerHandle | undefined;
  #gcAt = Infinity;
  #priorities: number[] = [];
  #prioritiesAt = -1;

  constructor(config: FlowControlConfig, clock: Clock, hooks: BandTableHooks, owner: ItemOwner) {
    this.#config = config;
    this.#clock = clock;
    this.#hooks = hooks;
    this.#owner = owner;
    for (const b of config.bands) this.#insert(new Band(b.priority, b, true, b.reservedRequests, b.reservedBytes));
    // Band 0 always exists: it is the fallback band of requests without an objective.
    if (!this.#byPriority.has(0)) this.#insert(new Band(0, config.defaultBand, true));
  }

  /** The band of `priority`, created from the default templates when missing. */
  band(priority: number): Band {
    const existing = this.#byPriority.get(priority);
    if (existing !== undefined) return existing;
    const band = new Band(priority, priority < 0 ? this.#config.defaultNegativeBand : this.#config.defaultBand, false);
    this.#insert(band);
    this.#idleBands.touch(band, this.#clock.now());
    this.#armGc();
    this.#hooks.bandCreated(band);
    return band;
  }

  /** The flow of `fairnessId` in `band`, created when missing. */
  flow(band: Band, fairnessId: string): Flow {
    const existing = band.flows.get(fairnessId);
    if (existing !== undefined) return existing;
    const flow = new Flow(band, fairnessId, this.#owner);
    band.flows.set(fairnessId, flow);
    this.#idleFlows.touch(flow, this.#clock.now());
    this.#armGc();
    this.#hooks.flowCreated(flow);
    return flow;
  }

  /** Highest band with queued requests. */
  highestNonEmpty(): Band | undefined {
    for (const b of this.bands) if (b.queuedRequests > 0) return b;
    return undefined;
  }

  /** Priorities of every band, highest first (cached until a band is created or collected). */
  priorities(): readonly number[] {
    if (this.#prioritiesAt !== this.version) {
      this.#priorities = this.bands.map((b) => b.priority);
      this.#prioritiesAt = this.version;
    }
    return this.#priorities;
  }

  /**
   * Whether one more request of `bytes` fits: the band's own limits, then the global limits minus
   * the unused part of every higher band's reservation (its explicitly configured limits), so
   * lower bands can never take queue space (memory) reserved for higher ones.
   */
  admits(band: Band, bytes: number): CapacityVerdict {
    if (band.queuedRequests + 1 > band.settings.maxRequests || band.queuedBytes + bytes > band.settings.maxBytes) return 'band';
    const gReq = this.#config.maxRequests;
    const gBytes = this.#config.maxBytes;
    if (gReq === 0 && gBytes === 0) return 'ok';
    let reservedReq = 0;
    let reservedBytes = 0;
    for (const b of this.bands) {
      if (b.priority <= band.priority) break;
      if (gReq > 0) reservedReq += Math.max(0, Math.min(b.reservedRequests, gReq) - b.queuedRequests);
      if (gBytes > 0) reservedBytes += Math.max(0, Math.min(b.reservedBytes, gBytes) - b.queuedBytes);
    }
    if (gReq > 0 && this.totalRequests + 1 + reservedReq > gReq) return 'global';
    if (gBytes > 0 && this.totalBytes + bytes + reservedBytes > gBytes) return 'global';
    return 'ok';
  }

  /** Accounts one request entering the queue of `flow`. */
  added(flow: Flow, bytes: number): void {
    const band = flow.band;
    if (flow.queue.size === 1) this.#idleFlows.remove(flow);
    if (band.queuedRequests === 0) this.#idleBands.remove(band);
    band.queuedRequests++;
    band.queuedBytes += bytes;
    flow.bytes += bytes;
    this.totalRequests++;
    this.totalBytes += bytes;
  }

  /** Accounts one request leaving the queue of `flow` (already removed from the flow's heap). */
  removed(flow: Flow, bytes: number): void {
    const band = flow.band;
    band.queuedRequests--;
    band.queuedBytes -= bytes;
    flow.bytes -= bytes;
    this.totalRequests--;
    this.totalBytes -= bytes;
    const now = this.#clock.now();
    if (flow.queue.size === 0) this.#idleFlows.touch(flow, now);
    if (band.queuedRequests === 0 && !band.permanent) this.#idleBands.touch(band, now);
    this.#armGc();
  }

  /**
   * Marks an idle flow (and band) as just used, postponing collection (pass-through dispatches).
   * Refreshed at most once a second: collection timeouts are minutes, and skipping the list
   * update keeps the pass-through path lean.
   */
  used(flow: Flow, now: number): void {
    if (flow.idle && now - flow.idleSince >= 1000) this.#idleFlows.touch(flow, now);
    const band = flow.band;
    if (band.idle && now - band.idleSince >= 1000) this.#idleBands.touch(band, now);
  }

  /** Stops the collection timer. */
  close(): void {
    if (this.#gcTimer !== undefined) this.#clock.clearTimeout(this.#gcTimer);
    this.#gcTimer = undefined;
    this.#gcAt = Infinity;
  }

  #insert(band: Band): void {
    this.#byPriority.set(band.priority, band);
    let i = this.bands.length;
    while (i > 0 && (this.bands[i - 1] as Band).priority < band.priority) i--;
    this.bands.splice(i, 0, band);
    this.version++;
  }

  #armGc(): void {
    const f = this.#idleFlows.oldest;
    const b = this.#idleBands.oldest;
    const at = Math.min(f === undefined ? Infinity : f.idleSince + this.#config.flowGcMs, b === undefined ? Infinity : b.idleSince + this.#config.bandGcMs);
    // Touching a member only moves its deadline later, so an earlier armed timer stays valid.
    if (at === Infinity || at >= this.#gcAt) return;
    if (this.#gcTimer !== undefined) this.#clock.clearTimeout(this.#gcTimer);
    this.#gcAt = at;
    this.#gcTimer = this.#clock.setTimeout(() => {
      this.#collect();
    }, Math.max(0, at - this.#clock.now()));
  }

  #collect(): void {
    this.#gcTimer = undefined;
    this.#gcAt = Infinity;
    const now = this.#clock.now();
    for (let f = this.#idleFlows.oldest; f !== undefined && now - f.idleSince >= this.#config.flowGcMs; f = this.#idleFlows.oldest) {
      this.#dropFlow(f);
    }
    for (let b = this.#idleBands.oldest; b !== undefined && now - b.idleSince >= this.#config.bandGcMs; b = this.#idleBands.oldest) {
      this.#idleBands.remove(b);
      for (const f of [...b.flows.values()]) this.#dropFlow(f);
      b.removed = true;
      this.#byPriority.delete(b.priority);
      this.bands.splice(this.bands.indexOf(b), 1);
      this.version++;
      this.#hooks.bandRemoved(b);
    }
    this.#armGc();
  }

  #dropFlow(flow: Flow): void {
    this.#idleFlows.remove(flow);
    flow.band.flows.delete(flow.fairnessId);
    flow.removed = true;
    this.#hooks.flowRemoved(flow);
  }
}
