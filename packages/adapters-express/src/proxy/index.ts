export { buildUpstreamHeaders, buildClientResponseHead, rawHeader } from './headers.js';
export type { UpstreamHeaderInput, ClientResponseHead } from './headers.js';
export { classifyUpstreamError, isRetryable, countsAsEndpointFailure } from './upstream-errors.js';
export type { UpstreamFailureKind } from './upstream-errors.js';
export { ProxyAttempt } from './attempt.js';
export type { AttemptResult, AttemptContext } from './attempt.js';
export { forwardRequest } from './forward.js';
export type { ForwardOptions, ForwardResult, ForwardControl } from './forward.js';
