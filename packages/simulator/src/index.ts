/**
 * `@switchyard/simulator`: a vLLM-like engine model, a live HTTP model-server fleet, a
 * virtual-time fleet simulator, workloads and reports for Switchyard.
 * @packageDocumentation
 */
export * from './util/index.js';
export * from './tokens/index.js';
export * from './engine/index.js';
export * from './server/index.js';
export * from './cli/index.js';
export * from './workloads/index.js';
export * from './report/index.js';
export * from './fleet/index.js';
export * from './policies/index.js';
export * from './bounds/index.js';
export * from './matrix/index.js';
