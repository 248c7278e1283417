export { runVirtualFleet } from './virtual-fleet.js';
export type { FleetView, PolicyContext, SimPolicy, PolicyFactory, MembershipChange, VirtualFleetOptions } from './types.js';
export { engineMetrics, scrapeEngineMetrics } from './metrics-bridge.js';
export { itemRequest, itemPickOptions, priorityObjectives } from './request.js';
export { comparePolicies } from './compare.js';
export type { CompareOptions } from './compare.js';
export { DEFAULT_GATEWAY_CPU, gatewayCpuMs, requestPathMs, type GatewayCpuModel } from './gateway-cost.js';
export { DEFAULT_SIGNAL_TIMING, type SignalTiming } from './signal-timing.js';
export { measureCapacity, type CapacityProbeOptions, type MeasuredCapacity } from './capacity.js';
