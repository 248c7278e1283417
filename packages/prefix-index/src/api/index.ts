export type { BlockKeys, KeyChain, EndpointMatch, PrefixMatchResult, PrefixIndexStats, PrefixIndex } from './types.js';
export type { PrefixIndexLogger } from './logger.js';
export { silentLogger, consoleLogger, OncePerCauseLogger } from './logger.js';
