export { PrefixHasher, createPrefixHasher } from './prefix-hasher.js';
export type { ChainOptions } from './prefix-hasher.js';
export { encodePromptBytes, tokensToBytes, bytesToTokens, pseudoTokenCount } from './prompt-bytes.js';
export { effectiveBlockSizeTokens, maxBlocksToMatch, MIN_APPROX_BLOCK_SIZE_TOKENS } from './block-size.js';
