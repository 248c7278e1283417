/**
 * `@switchyard/prefix-index`: KV-cache prefix indexes (approximate and KV-event precise) and prefix-aware scheduling plugins for Switchyard.
 * @packageDocumentation
 */
export * from './api/index.js';
export * from './hashing/index.js';
export * from './table/index.js';
export * from './approximate/index.js';
export * from './kv-events/index.js';
export * from './precise/index.js';
export * from './metrics/index.js';
export * from './subscriber/index.js';
export * from './tokenizer/index.js';
export * from './plugins/index.js';
export * from './profiles/switchyard.js';
