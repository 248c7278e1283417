/**
 * `@switchyard/core`: contracts, data layer and the Filter → Score → Pick scheduler.
 * @packageDocumentation
 */
export * from './clock/index.js';
export * from './errors/index.js';
export * from './headers/index.js';
export * from './request/index.js';
export * from './response/index.js';
export * from './objectives/index.js';
export * from './model-metrics/index.js';
export * from './endpoints/index.js';
export * from './scheduling/index.js';
export * from './admission/index.js';
export * from './saturation/index.js';
export * from './registry/index.js';
export * from './plugins/index.js';
export * from './config/index.js';
export * from './observability/index.js';
export * from './picker/index.js';
export * from './console/index.js';
export * from './logging/index.js';
export * from './assembly/index.js';
export * from './tracing/index.js';
export * from './state/index.js';
