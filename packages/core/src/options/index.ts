export { invalidOption } from './option-error.js';
export { resolveOptions, optionRules } from './rules.js';
export type { OptionRule, OptionRules } from './rules.js';
