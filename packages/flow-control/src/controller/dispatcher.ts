import type { Clock } from '@switchyard/core';
import type { UsageLimitPolicy } from '../policies/types.js';
import type { Band } from './flow.js';
import type { FlowItem } from './item.js';
import type { QueueSet } from './queues.js';

/** What the dispatcher needs from its controller. */
export interface DispatchHooks {
  /** Current gate value, including grants made earlier in this pass. */
  saturation(): number;
  /** Hands `item` its grant. */
  grant(item: FlowItem, now: number): void;
  /** The pass stopped at `band`'s ceiling; `changed` when a different band (or none) blocked before. */
  blocked(band: Band, saturation: number, ceiling: number, changed: boolean): void;
  /** Dispatch is no longer blocked (queues drained). */
  unblocked(): void;
  /** A pass that evaluated the gate took `seconds`. */
  cycle(seconds: number): void;
}

/**
 * Event-driven dispatch. A pass runs on every arrival (synchronously) and, coalesced into one
 * microtask, on every release, cancellation, expiry and pool event; it grants queued requests
 * highest band first for as long as the gate stays below the band's ceiling, re-reading the gate
 * after each grant. (llm-d dispatches at most one request per cycle and polls every millisecond;
 * here nothing waits for a tick and a freed slot is refilled in the same event-loop turn.)
 */
export class Dispatcher {
  readonly #queues: QueueSet;
  readonly #limits: UsageLimitPolicy;
  readonly #clock: Clock;
  readonly #hooks: DispatchHooks;
  #inPass = false;
  #rerun = false;
  #scheduled = false;
  #ceilingsAt = -1;
  #blocked: Band | undefined;

  constructor(queues: QueueSet, limits: UsageLimitPolicy, clock: Clock, hooks: DispatchHooks) {
    this.#queues = queues;
    this.#limits = limits;
    this.#clock = clock;
    this.#hooks = hooks;
  }

  /** Whether a pass is running (re-entrant calls only flag a rerun). */
  get inPass(): boolean {
    return this.#inPass;
  }

  /** Runs a pass now. */
  pass(): void {
    const table = this.#queues.table;
    if (this.#inPass) {
      this.#rerun = true;
      return;
    }
    if (table.totalRequests === 0) return;
    this.#inPass = true;
    const started = this.#clock.now();
    try {
      do {
        this.#rerun = false;
        this.#drain();
      } while (this.#takeRerun() && table.totalRequests > 0);
    } finally {
      this.#inPass = false;
    }
    this.#hooks.cycle((this.#clock.now() - started) / 1000);
  }

  /** Runs a pass in a microtask, after the caller's synchronous bookkeeping (coalesced). */
  schedule(): void {
    if (this.#scheduled) return;
    if (this.#queues.table.totalRequests === 0) {
      this.#unblock();
      return;
    }
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.pass();
    });
  }

  /**
   * The dispatch ceiling of `band`. As in llm-d, the usage limit policy sees every band that
   * exists (not only the non-empty ones), so a holdback reserves headroom for higher bands even
   * while they are momentarily idle; results are cached until a band is created or collected.
   */
  ceiling(band: Band, saturation: number): number {
    const table = this.#queues.table;
    if (this.#limits.saturationDependent === true || this.#ceilingsAt !== table.version) {
      const limits = this.#limits.computeLimits(saturation, table.priorities());
      table.bands.forEach((b, i) => (b.ceiling = limits[i] ?? 1));
      this.#ceilingsAt = table.version;
    }
    return band.ceiling;
  }

  #drain(): void {
    const table = this.#queues.table;
    let saturation = this.#hooks.saturation();
    for (;;) {
      const band = table.highestNonEmpty();
      if (band === undefined) break;
      const ceiling = this.ceiling(band, saturation);
      if (saturation >= ceiling) {
        // Strict priority: a blocked band blocks every band below it (head-of-line), as in llm-d.
        const changed = this.#blocked !== band;
        this.#blocked = band;
        this.#hooks.blocked(band, saturation, ceiling, changed);
        return;
      }
      this.#hooks.grant(this.#queues.takeNext(band), this.#clock.now());
      saturation = this.#hooks.saturation();
    }
    this.#unblock();
  }

  /** Whether a re-entrant call asked for another round (a listener admitted or released during the pass). */
  #takeRerun(): boolean {
    return this.#rerun;
  }

  #unblock(): void {
    if (this.#blocked === undefined) return;
    this.#blocked = undefined;
    this.#hooks.unblocked();
  }
}
