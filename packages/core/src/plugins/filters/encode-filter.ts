import { roleFilterDefinition } from './role-filter.js';

/**
 * `encode-filter`: keeps endpoints whose `llm-d.ai/role` is `encode`, `encode-prefill` or
 * `encode-prefill-decode` (unlabeled endpoints are removed).
 * @public
 * @category Built-in plugins
 */
export const encodeFilterPlugin = roleFilterDefinition(
  'encode-filter',
  ['encode', 'encode-prefill', 'encode-prefill-decode'],
  false,
  'Keeps encode-capable endpoints.',
);
