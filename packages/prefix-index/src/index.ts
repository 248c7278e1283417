/**
 * `@switchyard/prefix-index`: KV-cache prefix indexes (approximate and KV-event precise) and prefix-aware scheduling plugins for Switchyard.
 * @packageDocumentation
 */
export {};
