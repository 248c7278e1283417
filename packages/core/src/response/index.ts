export { usageFromWire, mergeUsage, readUsage } from './usage.js';
export { extractUsage } from './extract-usage.js';
export { SseUsageScanner } from './sse-usage.js';
export { ModelNameRestorer } from './model-restore.js';
export { createResponseBodyReader, responseBodyKind } from './body-reader.js';
export type { ResponseBodyKind, ResponseBodyReader, ResponseBodyReaderOptions } from './body-reader.js';
