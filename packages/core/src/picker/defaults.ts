import { optionRules, resolveOptions, type OptionRules } from '../options/rules.js';
import { IF_AVAILABLE_MODES, type IfAvailableMode } from './if-available.js';

/**
 * The defaults of `EndpointPickerOptions` that are plain values, stated once: `EndpointPicker`
 * resolves its options against them, and the `@defaultValue` tags of the options and the table of
 * docs/scheduling.md are tested against them.
 * @public
 * @category EndpointPicker façade
 */
export const PICKER_DEFAULTS: {
  readonly fallbacks: number;
  readonly ifAvailable: { readonly mode: IfAvailableMode; readonly maxHistory: number };
} = Object.freeze({
  fallbacks: 2,
  // Answering `Prefer: if-available` from the shared prefix index tells any client whether another
  // tenant's prompt is cached, so it is opt-in.
  ifAvailable: Object.freeze({ mode: 'off', maxHistory: 100_000 }),
});

type PickerDefaults = typeof PICKER_DEFAULTS;

const IF_AVAILABLE_RULES: OptionRules<PickerDefaults['ifAvailable']> = {
  mode: optionRules.oneOf<IfAvailableMode>(IF_AVAILABLE_MODES),
  maxHistory: optionRules.integerAtLeast(1),
};

const PICKER_RULES: OptionRules<PickerDefaults> = {
  fallbacks: optionRules.integerAtLeast(0),
  ifAvailable: optionRules.nested(PICKER_DEFAULTS.ifAvailable, IF_AVAILABLE_RULES),
};

/**
 * The picker's defaulted options, checked and filled from {@link PICKER_DEFAULTS}.
 * @throws SwitchyardError `CONFIG_INVALID` naming `picker.<option>` (`picker.ifAvailable.mode`)
 * @internal
 */
export function resolvePickerDefaults(options: { readonly fallbacks?: unknown; readonly ifAvailable?: unknown }): Readonly<PickerDefaults> {
  return resolveOptions('picker', options, PICKER_DEFAULTS, PICKER_RULES);
}
