import type { BandTable, CapacityVerdict } from './bands.js';
import type { Flow } from './flow.js';
import { itemBefore, type FlowItem } from './item.js';

/** Most queued requests displaced to make room for one newcomer (bounds the work of one admit). */
const MAX_DISPLACED_PER_ADMIT = 8;

/**
 * The queued request to displace so that a request of `flow` fits into its full band, or
 * undefined when `flow` is the one to refuse.
 *
 * Fairness policies order dispatch, but a full queue used to refuse whoever came next: a flooding
 * tenant kept the band full and a light tenant of the same band got nearly every 429. Here the
 * band's room is shared per flow: each flow with queued requests (the newcomer's included) is
 * entitled to an equal share of what the band holds. A newcomer whose flow is within its share
 * takes the place of the last-ordered request of the fullest flow, provided that flow is over its
 * share and would still hold more than the newcomer's after the swap (so two flows never trade
 * places back and forth). A flow at or over its share is refused, as before.
 */
function victimFor(flow: Flow): FlowItem | undefined {
  const band = flow.band;
  let active = flow.queue.size === 0 ? 1 : 0;
  let fullest: Flow | undefined;
  for (const f of band.flows.values()) {
    if (f.queue.size === 0) continue;
    active++;
    if (f !== flow && (fullest === undefined || f.queue.size > fullest.queue.size)) fullest = f;
  }
  if (fullest === undefined) return undefined;
  const share = (band.queuedRequests + 1) / active;
  const mine = flow.queue.size + 1;
  if (mine > share || fullest.queue.size <= share || fullest.queue.size <= mine) return undefined;
  // The request its flow's ordering would serve last loses the least by leaving.
  const items = fullest.queue.items();
  let last = items[0] as FlowItem;
  for (const it of items) if (itemBefore(last, it)) last = it;
  return last;
}

/**
 * Makes room for `item` in its full band by displacing requests of flows over their fair share
 * (see {@link victimFor}), at most a few per call. `displace` takes a victim out of the queue and
 * answers it. Returns the capacity verdict afterwards: still not `ok` when the newcomer's flow is
 * over its share, or when the freed room (e.g. bytes) was not enough.
 * @internal
 */
export function makeRoomFairly(item: FlowItem, verdict: CapacityVerdict, table: BandTable, displace: (victim: FlowItem, by: FlowItem) => void): CapacityVerdict {
  for (let i = 0; i < MAX_DISPLACED_PER_ADMIT && verdict !== 'ok'; i++) {
    const victim = victimFor(item.flow);
    if (victim === undefined) break;
    displace(victim, item);
    verdict = table.admits(item.flow.band, item.byteSize);
  }
  return verdict;
}
