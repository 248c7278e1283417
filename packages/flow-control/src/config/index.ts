export { parseFlowControlConfig, FLOW_CONTROL_DEFAULTS } from './parse.js';
export type { ParseFlowControlOptions } from './parse.js';
export { flowControlSchema } from './schema.js';
export type { FlowControlInput } from './schema.js';
export type { BandTemplate, BandSettings, FlowControlConfig } from './types.js';
