export { FlowController } from './flow-controller.js';
export { createFlowController, flowControllerForConfig } from './create.js';
export { flowControlPack, FLOW_CONTROL_DEFAULT_TYPES } from './pack.js';
export type { FlowControllerEvents } from './events.js';
export type { FlowControllerOptions, AdmitOptions } from './options.js';
export type { FlowControllerStats, BandStats, FlowStats } from './introspection.js';
export { flowControlConsoleSource } from './console-source.js';
export type { FlowControlConsoleSourceOptions } from './console-source.js';
