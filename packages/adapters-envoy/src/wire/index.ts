// The message types are listed once, name by name, in the package root (src/index.ts).
export type * from './messages.js';
export { valueToJson, structToJson, readAddressList, readString, namespaceStruct } from './struct.js';
export { headerMapToRecord, setHeader } from './headers.js';
export { STREAMED_BODY_CHUNK_BYTES, headersResponse, bodyChunkResponse, bodyChunkResponses, trailersResponse } from './responses.js';
export type { Direction, HeadersReply } from './responses.js';
export { immediateResponseFor, localImmediateResponse } from './immediate.js';
