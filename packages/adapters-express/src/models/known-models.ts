import { getGlobalDispatcher, type Dispatcher } from 'undici';
import type { Clock, EndpointPool, TimerHandle } from '@switchyard/core';
import { relayModels } from '../gateway/ops.js';
import type { ModelCatalogue } from './catalogue-router.js';

/**
 * Label value under which requests for models the gateway does not know are counted.
 * @public
 * @category Multi-model routing
 */
export const UNKNOWN_MODEL_LABEL = '__unknown__';

/** How often the endpoints' `/v1/models` lists are fetched again. */
const REFRESH_MS = 30_000;

/**
 * The model names the gateway labels metrics with: the configured ones (pool models, route
 * names and their targets) plus, in single-pool mode, those the endpoints list on `/v1/models`
 * (refreshed every 30 s) and those a live {@link ModelCatalogue} names now (Kubernetes IPP
 * ConfigMaps). Any other name a client sends is labelled {@link UNKNOWN_MODEL_LABEL},
 * so random model names cannot grow the metric series (and push real models into
 * `__overflow__`). The list of names itself is bounded by what operators configure and what
 * model servers serve.
 * @public
 * @category Multi-model routing
 */
export class KnownModels {
  readonly #names = new Set<string>();
  /** The followed catalogue's names: replaced on each change, so a removed name stops counting. */
  #catalogueNames: ReadonlySet<string> = new Set();
  #unfollowCatalogue: (() => void) | undefined;
  #timer: TimerHandle | undefined;
  #clock: Clock | undefined;
  #closed = false;

  constructor(names: Iterable<string> = []) {
    for (const n of names) this.#names.add(n);
  }

  /** The label value of `model`. */
  readonly label = (model: string): string => (this.#names.has(model) || this.#catalogueNames.has(model) ? model : UNKNOWN_MODEL_LABEL);

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

  /** Counts the names `catalogue` holds, as they change, until {@link KnownModels.close}. */
  followCatalogue(catalogue: ModelCatalogue): void {
    this.#unfollowCatalogue?.();
    const refresh = (): void => { this.#catalogueNames = new Set(catalogue.names()); };
    catalogue.on('change', refresh);
    this.#unfollowCatalogue = () => { catalogue.off('change', refresh); };
    refresh();
  }

  /** Stops refreshing and following the catalogue. */
  close(): void {
    this.#closed = true;
    this.#unfollowCatalogue?.();
    this.#unfollowCatalogue = undefined;
    if (this.#timer !== undefined) this.#clock?.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
