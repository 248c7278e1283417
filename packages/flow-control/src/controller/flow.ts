import type { BandTemplate } from '../config/types.js';
import type { OutcomeSeriesCache } from '../metrics/flow-metrics.js';
import { ModelOutcomeCache } from '../metrics/model-outcome-cache.js';
import type { FlowSelector, FlowView, QueuedRequest } from '../policies/types.js';
import type { IdleNode } from '../structures/idle-list.js';
import { IndexedHeap } from '../structures/indexed-heap.js';
import { itemBefore, type FlowItem, type ItemOwner } from './item.js';


/** One FlowKey = (fairness id, priority): a queue ordered by the band's ordering policy. */
export class Flow implements FlowView, IdleNode {
  readonly fairnessId: string;
  readonly band: Band;
  /** The controller, reached through the flow so each item saves a field. */
  readonly owner: ItemOwner;
  readonly queue = new IndexedHeap<FlowItem>(itemBefore, {
    get: (i) => i.queueIndex,
    set: (i, at) => (i.queueIndex = at),
  });
  bytes = 0;
  policyState: unknown = undefined;
  /** Tokens dispatched since the fairness index was last read. */
  served = 0;
  /** Series of `request_queue_duration_seconds`, by model pair and outcome; its pairs label the queue gauges. */
  readonly metricCache = new ModelOutcomeCache();
  /** Series of `request_enqueue_duration_seconds`, by how this flow's requests were handed to the queue. */
  enqueueCache: OutcomeSeriesCache = [];
  removed = false;
  idleSince = 0;
  idlePrev: IdleNode | undefined = undefined;
  idleNext: IdleNode | undefined = undefined;
  idle = false;

  constructor(band: Band, fairnessId: string, owner: ItemOwner) {
    this.band = band;
    this.fairnessId = fairnessId;
    this.owner = owner;
  }

  get priority(): number {
    return this.band.priority;
  }

  get size(): number {
    return this.queue.size;
  }

  head(): QueuedRequest | undefined {
    return this.queue.peek();
  }
}

/** A priority band: its flows, limits, fairness state and queue counters. */
export class Band implements IdleNode {
  readonly priority: number;
  readonly settings: BandTemplate;
  /** Share of the global request limit only this band (or higher ones) may use. */
  readonly reservedRequests: number;
  /** Share of the global byte limit only this band (or higher ones) may use. */
  readonly reservedBytes: number;
  /** Never garbage-collected (declared bands and band 0). */
  readonly permanent: boolean;
  readonly flows = new Map<string, Flow>();
  readonly selector: FlowSelector;
  queuedRequests = 0;
  queuedBytes = 0;
  removed = false;
  idleSince = 0;
  idlePrev: IdleNode | undefined = undefined;
  idleNext: IdleNode | undefined = undefined;
  idle = false;

  /** Current dispatch ceiling (set by the controller from the usage limit policy). */
  ceiling = 1;

  constructor(priority: number, settings: BandTemplate, permanent: boolean, reservedRequests = 0, reservedBytes = 0) {
    this.priority = priority;
    this.settings = settings;
    this.reservedRequests = reservedRequests;
    this.reservedBytes = reservedBytes;
    this.permanent = permanent;
    this.selector = settings.fairness.createSelector(itemBefore);
  }
}
