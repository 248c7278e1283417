/**
 * `@switchyard/simulator`: Model-server engine model, live HTTP fleet and virtual-time fleet simulator for Switchyard.
 * @packageDocumentation
 */
export {};
