/**
 * `@switchyard/flow-control`: FlowKey queues, priority bands, fairness and ordering policies,
 * usage limits and in-flight eviction in front of a Switchyard endpoint pool.
 * @packageDocumentation
 */
export * from './units/index.js';
export * from './structures/index.js';
export * from './policies/index.js';
export * from './config/index.js';
export * from './metrics/index.js';
export * from './controller/index.js';
