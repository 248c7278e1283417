import type { Workload } from './types.js';

/**
 * The same workload offered `factor` times faster: open-loop arrival times are divided by it;
 * closed-loop think times (`delayMs` after a predecessor) stay, as users do not think faster.
 * This is how `--target-load` sets a load without changing what is offered.
 * @public
 * @category Workloads
 */
export function scaleArrivals(workload: Workload, factor: number): Workload {
  if (factor === 1) return workload;
  return {
    ...workload,
    params: { ...workload.params, arrivalScale: factor },
    items: workload.items.map((it) => ({ ...it, arrivalMs: it.arrivalMs / factor })),
  };
}
