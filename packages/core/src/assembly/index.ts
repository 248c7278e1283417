export { createPickerFromConfig } from './picker-from-config.js';
export type { PickerFromConfigOptions, PickerFromConfig } from './picker-from-config.js';
