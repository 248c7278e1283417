import { FlowRing, type RingNode } from './ring.js';
import type { FairnessPolicy, FlowSelector, FlowView, QueuedRequest } from './types.js';

/**
 * Registry type of the weighted deficit-round-robin fairness policy (Switchyard's own). @public
 * @category Policies
 */
export const WEIGHTED_DRR_FAIRNESS = 'weighted-drr-fairness-policy';

/**
 * Options of {@link createWeightedDrrFairness}.
 * @public
 * @category Policies
 */
export interface WeightedDrrOptions {
  /** Instance name (default: the type). */
  readonly name?: string;
  /** Tokens a flow of weight 1 may dispatch per round (default 2048). */
  readonly quantumTokens?: number;
  /** Weight per fairness id (default `defaultWeight`). */
  readonly weights?: Readonly<Record<string, number>>;
  /** Weight of flows not listed in `weights` (default 1). */
  readonly defaultWeight?: number;
}

interface DrrNode extends RingNode {
  deficit: number;
  /** Whether this visit's quantum was already added (only the cursor node can be credited). */
  credited: boolean;
  readonly quantum: number;
}

const costOf = (item: QueuedRequest | undefined): number => Math.max(1, item?.tokens ?? 1);

/**
 * `weighted-drr-fairness-policy` (Switchyard's own; llm-d has none charged in tokens): deficit
 * round robin where each flow earns `quantumTokens × weight` tokens per round and spends each
 * request's estimated tokens, so tenants share the pool in proportion to their weights measured in
 * tokens rather than in requests: one tenant's 30k-token prompts cannot crowd out another's short
 * chats. When the request finishes with real usage, the difference to the estimate is charged
 * (or refunded) to the flow. Rounds that cannot serve anyone are skipped arithmetically, so a
 * huge request costs O(flows), not O(tokens / quantum).
 * @public
 * @category Policies
 */
export function createWeightedDrrFairness(options: WeightedDrrOptions = {}): FairnessPolicy {
  const quantum = options.quantumTokens ?? 2048;
  const weights = options.weights ?? {};
  const defaultWeight = options.defaultWeight ?? 1;
  if (!(quantum > 0) || !(defaultWeight > 0) || Object.values(weights).some((w) => !(w > 0))) {
    throw new RangeError('weighted-drr-fairness-policy: quantumTokens and weights must be > 0');
  }
  return {
    type: WEIGHTED_DRR_FAIRNESS,
    name: options.name ?? WEIGHTED_DRR_FAIRNESS,
    kind: 'fairness-policy',
    createSelector(): FlowSelector {
      const ring = new FlowRing<DrrNode>();

      // After a full round in which nobody could pay for its head, jump ahead by the number of
      // whole rounds the closest flow still needs.
      const skipRounds = (): void => {
        let rounds = Infinity;
        ring.forEach((n) => {
          rounds = Math.min(rounds, Math.ceil((costOf(n.flow.head()) - n.deficit) / n.quantum));
        });
        if (rounds > 1 && Number.isFinite(rounds)) ring.forEach((n) => (n.deficit += (rounds - 1) * n.quantum));
      };

      return {
        add(flow) {
          const node = { flow, deficit: 0, credited: false, quantum: quantum * (weights[flow.fairnessId] ?? defaultWeight) } as DrrNode;
          flow.policyState = node;
          ring.insert(node);
        },
        remove(flow) {
          const node = flow.policyState as DrrNode | undefined;
          if (node === undefined) return;
          ring.unlink(node);
          // Classic DRR: an emptied flow forfeits its deficit so idle tenants cannot bank credit.
          node.deficit = 0;
          flow.policyState = undefined;
        },
        headChanged() {
          // The next visit reads the new head's cost.
        },
        select(): FlowView {
          let visits = 0;
          for (;;) {
            const node = ring.cursor as DrrNode;
            if (!node.credited) {
              node.deficit += node.quantum;
              node.credited = true;
            }
            if (node.deficit >= costOf(node.flow.head())) return node.flow;
            node.credited = false;
            ring.advance();
            if (++visits >= ring.size) {
              skipRounds();
              visits = 0;
            }
          }
        },
        dispatched(flow, item) {
          const node = flow.policyState as DrrNode | undefined;
          if (node !== undefined) node.deficit -= costOf(item);
        },
        settle(flow, estimated, actual) {
          const node = flow.policyState as DrrNode | undefined;
          if (node !== undefined) node.deficit -= Math.max(1, actual) - Math.max(1, estimated);
        },
      };
    },
  };
}
