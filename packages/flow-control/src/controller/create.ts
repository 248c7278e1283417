import { FlowController } from './flow-controller.js';
import type { FlowControllerOptions } from './options.js';

/**
 * Creates a {@link FlowController} from llm-d's `flowControl` block (`options.config`) and the
 * config's plugins. Without a block every default applies: band 0 with 5000 requests / 1e9 bytes,
 * FCFS ordering, global-strict fairness, static ceiling 1.0, `utilization-detector`, 60s TTL.
 * @example
 * ```ts
 * const admission = createFlowController({ pool, config: loaded.flowControl, plugins: loaded.plugins });
 * const grant = await admission.admit(schedulingRequest, { signal });
 * try { ... } finally { grant.release({ kind: 'success' }); }
 * ```
 * @throws SwitchyardError `CONFIG_INVALID` when the block is invalid
 * @public
 */
export function createFlowController(options: FlowControllerOptions): FlowController {
  return new FlowController(options);
}
