import { EndpointPool, type EndpointMetrics, type ManualClock } from '@switchyard/core';
import type { EngineModel } from '../engine/engine.js';
import type { SimKvEventBatch } from '../engine/kv-events.js';
import type { Rng } from '../util/prng.js';
import { engineMetrics, scrapeEngineMetrics } from './metrics-bridge.js';
import { kvDeliveryMs, nextScrapeMs, scrapePhaseMs, type SignalTiming } from './signal-timing.js';
import type { SimPolicy } from './types.js';

/**
 * A pod as the fleet runs it. `engine` is replaced when the pod restarts behind its stable
 * endpoint, so replicas always read whatever engine serves the address now.
 * @internal
 */
export interface FleetPod {
  readonly id: string;
  readonly address: string;
  engine: EngineModel;
  state: 'up' | 'draining' | 'down';
}

/**
 * One gateway replica: its own endpoint pool (scraped metrics, in-flight counts), its own policy
 * (picker, prefix index, queues) built by the policy factory, its own event loop whose CPU time
 * is charged per request, and its own scrape timers and KV-event subscriptions. Nothing is shared
 * between replicas unless the factory shares it (the seam for shared state, docs/simulator.md).
 * @internal
 */
export class GatewayReplica {
  readonly pool = new EndpointPool();
  policy: SimPolicy | undefined;
  readonly #clock: ManualClock;
  readonly #scrapeRng: Rng;
  readonly #kvRng: Rng;
  readonly #timing: SignalTiming;
  readonly #via: 'snapshot' | 'prometheus';
  /** When this replica's event loop is free again. */
  #busyUntil = 0;
  /** Per pod: when the last KV batch will have been delivered (a subscription keeps order). */
  readonly #kvTail = new Map<string, number>();

  constructor(readonly index: number, clock: ManualClock, rng: Rng, timing: SignalTiming, via: 'snapshot' | 'prometheus') {
    this.#clock = clock;
    // Separate streams: a policy that takes KV events must not shift the scrape timings, so every
    // policy of a comparison is scraped at the same instants.
    this.#scrapeRng = rng.fork('scrapes');
    this.#kvRng = rng.fork('kv-events');
    this.#timing = timing;
    this.#via = via;
  }

  /** Adds a pod to the pool and starts polling it at a random phase. */
  addPod(pod: FleetPod, labels: Readonly<Record<string, string>>): void {
    this.pool.add({ id: pod.id, address: pod.address, labels });
    let last: EndpointMetrics | undefined;
    const scrape = (): void => {
      if (pod.state !== 'up' || this.pool.get(pod.id) === undefined) return;
      const now = this.#clock.now();
      last = this.#via === 'prometheus' ? scrapeEngineMetrics(pod.engine, now, last) : engineMetrics(pod.engine, now);
      this.pool.setMetrics(pod.id, last);
      this.#clock.setTimeout(scrape, nextScrapeMs(this.#timing, this.#scrapeRng));
    };
    this.#clock.setTimeout(scrape, scrapePhaseMs(this.#timing, this.#scrapeRng));
  }

  /** Delivers one KV-event batch of `pod` after a drawn delay (or drops it), in order. */
  deliverKv(pod: FleetPod, batch: SimKvEventBatch): void {
    const sink = this.policy?.onKvEvents;
    if (sink === undefined) return;
    const delay = kvDeliveryMs(this.#timing, this.#kvRng);
    if (delay === undefined) return;
    const now = this.#clock.now();
    const at = Math.max(now + delay, this.#kvTail.get(pod.id) ?? 0);
    this.#kvTail.set(pod.id, at);
    this.#clock.setTimeout(() => {
      if (pod.state !== 'down') sink(pod.id, batch);
    }, at - now);
  }

  /** Reserves `cpuMs` of this replica's event loop; returns the delay until the work is done. */
  chargeCpu(cpuMs: number): number {
    const now = this.#clock.now();
    const start = Math.max(now, this.#busyUntil);
    this.#busyUntil = start + cpuMs;
    return this.#busyUntil - now;
  }
}
