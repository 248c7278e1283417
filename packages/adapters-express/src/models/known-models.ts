import { getGlobalDispatcher, type Dispatcher } from 'undici';
import type { Clock, EndpointPool, TimerHandle } from '@switchyard/core';
import { relayModels } from '../gateway/ops.js';

/**
 * Label value under which requests for models the gateway does not know are counted.
 * @public
 */
export const UNKNOWN_MODEL_LABEL = '__unknown__';

/** How often the endpoints' `/v1/models` lists are fetched again. */
const REFRESH_MS = 30_000;

/**
 * The model names the gateway labels metrics with: the configured ones (pool models, route
 * names and their targets) plus, in single-pool mode, those the endpoints list on `/v1/models`
 * (refreshed every 30 s). Any other name a client sends is labelled {@link UNKNOWN_MODEL_LABEL},
 * so random model names cannot grow the metric series (and push real models into
 * `__overflow__`). The list of names itself is bounded by what operators configure and what
 * model servers serve.
 * @public
 */
export class KnownModels {
  readonly #names = new Set<string>();
  #timer: TimerHandle | undefined;
  #clock: Clock | undefined;
  #closed = false;

  constructor(names: Iterable<string> = []) {
    for (const n of names) this.#names.add(n);
  }

  /** The label value of `model`. */
  readonly label = (model: string): string => (this.#names.has(model) ? model : UNKNOWN_MODEL_LABEL);

  /** Adds names (a model list answered by an endpoint). */
  add(names: Iterable<string>): void {
    for (const n of names) this.#names.add(n);
  }

  /** Starts learning the endpoints' own model lists now and every 30 s, until {@link KnownModels.close}. */
  follow(pool: EndpointPool, clock: Clock, dispatcher: Dispatcher = getGlobalDispatcher()): void {
    this.#clock = clock;
    const refresh = (): void => {
      this.#timer = undefined;
      void relayModels(dispatcher, pool.list()).then((list) => {
        if (list !== undefined) this.add(list.map((m) => m.id));
        if (!this.#closed) this.#timer = clock.setTimeout(refresh, REFRESH_MS);
      });
    };
    refresh();
  }

  /** Stops refreshing. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.#clock?.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
