/**
 * `@switchyard/flow-control`: Flow control for Switchyard: FlowKey queues, priority bands, fairness, saturation detectors.
 * @packageDocumentation
 */
export {};
