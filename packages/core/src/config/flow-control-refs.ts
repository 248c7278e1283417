import { invalid } from './issues.js';

/**
 * Checks every `pluginRef` / `*Ref` string inside the `flowControl` block names a configured
 * plugin, so a typo fails at load time with its path instead of at the first request.
 * @throws SwitchyardError `CONFIG_INVALID` for an undefined reference
 * @internal
 */
export function checkFlowControlRefs(block: unknown, has: (name: string) => boolean, path: (string | number)[] = ['flowControl']): void {
  if (Array.isArray(block)) {
    block.forEach((v, i) => {
      checkFlowControlRefs(v, has, [...path, i]);
    });
    return;
  }
  if (block === null || typeof block !== 'object') return;
  for (const [key, value] of Object.entries(block)) {
    if (/Ref$/.test(key) && typeof value === 'string' && !has(value)) {
      throw invalid([...path, key], `undefined plugin "${value}" (declare it under plugins)`);
    }
    checkFlowControlRefs(value, has, [...path, key]);
  }
}
