export { FlowController } from './flow-controller.js';
export { createFlowController, flowControllerForConfig } from './create.js';
export type { FlowControllerEvents } from './events.js';
export type { FlowControllerOptions, AdmitOptions } from './options.js';
export type { FlowControllerStats, BandStats } from './introspection.js';
