export { BYTES_PER_TOKEN, tokenizeText, tokenizeBytes, detokenize, detokenizeBytes, countTextTokens } from './text-tokens.js';
export { renderChatTemplate, flattenContent } from './chat-template.js';
export type { TemplateMessage } from './chat-template.js';
export { syntheticToken, fillSyntheticTokens } from './synthetic.js';
