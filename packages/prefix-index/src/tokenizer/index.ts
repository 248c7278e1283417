export { functionTokenizer } from './types.js';
export type { Tokenizer, TokenizeFunction } from './types.js';
export { VllmRenderTokenizer, readTokenIds } from './vllm-render-tokenizer.js';
export type { VllmRenderTokenizerOptions } from './vllm-render-tokenizer.js';
export { createLocalTokenizer } from './local-tokenizer.js';
export type { LocalTokenizerOptions } from './local-tokenizer.js';
