import type { Clock, TimerHandle } from '@switchyard/core';

interface AdapterState {
  loaded: boolean;
  running: number;
  waiting: number;
  lastUsed: number;
  timer: TimerHandle | undefined;
}

/**
 * LoRA slots of one engine: at most `maxLoras` adapters resident (loaded or loading). A waiting
 * request for an absent adapter starts a load when a slot is free or an idle adapter (no running
 * request) can be evicted, least recently used first; the load takes `loadMs` of clock time.
 * Tracks running and waiting adapters for `vllm:lora_requests_info`.
 * @public
 * @category Engine
 */
export class LoraManager {
  readonly #clock: Clock;
  readonly #maxLoras: number;
  readonly #loadMs: number;
  readonly #onLoaded: () => void;
  readonly #state = new Map<string, AdapterState>();
  #resident = 0;
  #loads = 0;

  /**
   * @param clock - time source for load latency
   * @param maxLoras - slots
   * @param loadMs - load latency
   * @param onLoaded - called when a load completes (the engine re-runs its scheduler)
   */
  constructor(clock: Clock, maxLoras: number, loadMs: number, onLoaded: () => void) {
    this.#clock = clock;
    this.#maxLoras = maxLoras;
    this.#loadMs = loadMs;
    this.#onLoaded = onLoaded;
  }

  /** Slots. */
  get maxLoras(): number {
    return this.#maxLoras;
  }

  /** Adapter loads started so far. */
  get loads(): number {
    return this.#loads;
  }

  #get(name: string): AdapterState {
    let s = this.#state.get(name);
    if (s === undefined) {
      s = { loaded: false, running: 0, waiting: 0, lastUsed: 0, timer: undefined };
      this.#state.set(name, s);
    }
    return s;
  }

  /** A request for `name` joined (+1) or left (-1) the waiting queue. */
  addWaiting(name: string, delta: number): void {
    this.#get(name).waiting += delta;
  }

  /**
   * Whether a request for `name` may be scheduled now. When the adapter is absent this starts
   * its load if a slot can be had, and answers false until the load completes.
   */
  ready(name: string): boolean {
    const s = this.#get(name);
    if (s.loaded) return true;
    if (s.timer !== undefined) return false;
    if (this.#resident >= this.#maxLoras && !this.#evictIdle()) return false;
    this.#resident++;
    this.#loads++;
    s.timer = this.#clock.setTimeout(() => {
      s.timer = undefined;
      s.loaded = true;
      this.#onLoaded();
    }, this.#loadMs);
    return false;
  }

  /** A request for `name` started (+1) or stopped (-1) running. */
  addRunning(name: string, delta: number): void {
    const s = this.#get(name);
    s.running += delta;
    s.lastUsed = this.#clock.now();
  }

  /** Adapters with running requests (sorted). */
  runningAdapters(): string[] {
    return [...this.#state].filter(([, s]) => s.running > 0).map(([n]) => n).sort();
  }

  /** Adapters with waiting requests (sorted). */
  waitingAdapters(): string[] {
    return [...this.#state].filter(([, s]) => s.waiting > 0).map(([n]) => n).sort();
  }

  /** Adapters loaded in a slot (sorted). */
  loadedAdapters(): string[] {
    return [...this.#state].filter(([, s]) => s.loaded).map(([n]) => n).sort();
  }

  /** Cancels pending loads. */
  close(): void {
    for (const s of this.#state.values()) if (s.timer !== undefined) this.#clock.clearTimeout(s.timer);
  }

  #evictIdle(): boolean {
    let victim: AdapterState | undefined;
    for (const s of this.#state.values()) {
      if (s.loaded && s.running === 0 && (victim === undefined || s.lastUsed < victim.lastUsed)) victim = s;
    }
    if (victim === undefined) return false;
    victim.loaded = false;
    this.#resident--;
    return true;
  }
}
