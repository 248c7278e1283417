import { roleFilterDefinition } from './role-filter.js';

/**
 * `decode-filter`: keeps endpoints whose `llm-d.ai/role` is `decode`, `prefill-decode`, `both` or
 * `encode-prefill-decode`, and endpoints without the label.
 * @public
 * @category Built-in plugins
 */
export const decodeFilterPlugin = roleFilterDefinition(
  'decode-filter',
  ['decode', 'prefill-decode', 'both', 'encode-prefill-decode'],
  true,
  'Keeps decode-capable and unlabeled endpoints.',
);
