import { FlowRing, type RingNode } from './ring.js';
import type { FairnessPolicy, FlowSelector, FlowView } from './types.js';

/**
 * Registry type of the round-robin fairness policy. @public
 * @category Policies
 */
export const ROUND_ROBIN_FAIRNESS = 'round-robin-fairness-policy';

/**
 * `round-robin-fairness-policy`: one dispatch per non-empty flow in turn, so backlogged flows of a
 * band get equal dispatch counts (±1) whatever their arrival rates. Flows that become non-empty
 * join at the end of the current round. (llm-d walks flows sorted by id; joining at the end of
 * the round gives the same equal shares without re-sorting on every activation.)
 * @public
 * @category Policies
 */
export function createRoundRobinFairness(name: string = ROUND_ROBIN_FAIRNESS): FairnessPolicy {
  return {
    type: ROUND_ROBIN_FAIRNESS,
    name,
    kind: 'fairness-policy',
    createSelector(): FlowSelector {
      const ring = new FlowRing();
      return {
        add(flow) {
          const node = { flow } as RingNode;
          flow.policyState = node;
          ring.insert(node);
        },
        remove(flow) {
          const node = flow.policyState as RingNode | undefined;
          if (node !== undefined) ring.unlink(node);
          flow.policyState = undefined;
        },
        headChanged() {
          // Order across flows does not depend on heads.
        },
        select(): FlowView {
          return (ring.cursor as RingNode).flow;
        },
        dispatched(flow) {
          if (ring.cursor?.flow === flow) ring.advance();
        },
      };
    },
  };
}
