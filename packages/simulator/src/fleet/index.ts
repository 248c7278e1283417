export { runVirtualFleet } from './virtual-fleet.js';
export type { FleetView, PolicyContext, SimPolicy, PolicyFactory, MembershipChange, VirtualFleetOptions } from './types.js';
export { engineMetrics, scrapeEngineMetrics } from './metrics-bridge.js';
export { itemRequest, itemPickOptions, priorityObjectives } from './request.js';
export { comparePolicies } from './compare.js';
export type { CompareOptions } from './compare.js';
