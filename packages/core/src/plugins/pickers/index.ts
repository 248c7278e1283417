export { arrayPicker, pickerParametersSchema } from './picker-base.js';
export type { PickFromFn, PickerParameters } from './picker-base.js';
export { maxScorePickerPlugin } from './max-score-picker.js';
export { randomPickerPlugin } from './random-picker.js';
export { weightedRandomPickerPlugin } from './weighted-random-picker.js';
