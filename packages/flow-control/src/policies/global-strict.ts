import { IndexedHeap } from '../structures/indexed-heap.js';
import type { FairnessPolicy, FlowSelector, FlowView, QueuedRequest } from './types.js';

/**
 * Registry type of the global-strict fairness policy. @public
 * @category Policies
 */
export const GLOBAL_STRICT_FAIRNESS = 'global-strict-fairness-policy';

interface Node {
  readonly flow: FlowView;
  at: number;
}

/**
 * `global-strict-fairness-policy` (llm-d's default): always dispatches the best head across all
 * flows of the band by the band's ordering, so the band behaves like one logical queue and flows
 * get no isolation from each other. Flows sit in a heap keyed by their heads, so each pick is
 * O(log flows) rather than a scan.
 * @public
 * @category Policies
 */
export function createGlobalStrictFairness(name: string = GLOBAL_STRICT_FAIRNESS): FairnessPolicy {
  return {
    type: GLOBAL_STRICT_FAIRNESS,
    name,
    kind: 'fairness-policy',
    createSelector(before: (a: QueuedRequest, b: QueuedRequest) => boolean): FlowSelector {
      const heap = new IndexedHeap<Node>((a, b) => before(a.flow.head() as QueuedRequest, b.flow.head() as QueuedRequest), {
        get: (n) => n.at,
        set: (n, i) => (n.at = i),
      });
      const nodeOf = (flow: FlowView): Node | undefined => flow.policyState as Node | undefined;
      const headChanged = (flow: FlowView): void => {
        const node = nodeOf(flow);
        if (node !== undefined) heap.update(node);
      };
      return {
        add(flow) {
          const node: Node = { flow, at: -1 };
          flow.policyState = node;
          heap.push(node);
        },
        remove(flow) {
          const node = nodeOf(flow);
          if (node !== undefined) heap.remove(node);
          flow.policyState = undefined;
        },
        headChanged,
        select() {
          return (heap.peek() as Node).flow;
        },
        dispatched(flow) {
          // The head moved on; a flow that became empty is removed right after.
          if (flow.size > 0) headChanged(flow);
        },
      };
    },
  };
}
