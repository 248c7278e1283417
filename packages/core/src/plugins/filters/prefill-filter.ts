import { roleFilterDefinition } from './role-filter.js';

/**
 * `prefill-filter`: keeps endpoints whose `llm-d.ai/role` is `prefill`, `encode-prefill`,
 * `prefill-decode`, `both` or `encode-prefill-decode` (unlabeled endpoints are removed).
 * @public
 * @category Built-in plugins
 */
export const prefillFilterPlugin = roleFilterDefinition(
  'prefill-filter',
  ['prefill', 'encode-prefill', 'prefill-decode', 'both', 'encode-prefill-decode'],
  false,
  'Keeps prefill-capable endpoints.',
);
