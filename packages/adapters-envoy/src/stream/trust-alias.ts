import { invalidOption, optionRules } from '@switchyard/core';

let warned = false;

/**
 * Reads the trust switch of options that still accept the deprecated `trustHeaders` spelling:
 * `trustClassificationHeaders` wins; `trustHeaders` alone still works and emits one
 * `DeprecationWarning` per process (code `SWITCHYARD_TRUST_HEADERS`); both given and different is
 * an error, since one of them would be silently ignored.
 * @throws SwitchyardError `CONFIG_INVALID` naming `<scope>.trustHeaders`
 */
export function trustSwitch(scope: string, options: { readonly trustClassificationHeaders?: boolean | undefined; readonly trustHeaders?: boolean | undefined }): boolean | undefined {
  const current = options.trustClassificationHeaders;
  const old = options.trustHeaders;
  if (old === undefined) return current;
  const value = optionRules.boolean(old, `${scope}.trustHeaders`);
  if (current !== undefined && current !== value) throw invalidOption(`${scope}.trustHeaders`, `is the deprecated name of trustClassificationHeaders (${String(current)}); give one`, value);
  if (!warned) {
    warned = true;
    process.emitWarning(`${scope}.trustHeaders is deprecated: use trustClassificationHeaders`, { type: 'DeprecationWarning', code: 'SWITCHYARD_TRUST_HEADERS' });
  }
  return current ?? value;
}
