/**
 * `@switchyard/envoy`: Envoy ext_proc (v3) Endpoint Picker server for Switchyard.
 * @packageDocumentation
 */
export * from './wire/index.js';
export * from './stream/index.js';
export * from './grpc/index.js';
export * from './epp/index.js';
export * from './cli/index.js';
export * from './codec/index.js';
