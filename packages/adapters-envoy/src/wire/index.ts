export type {
  WireHeaderValue,
  WireHeaderMap,
  WireValue,
  WireStruct,
  WireMetadata,
  WireHttpHeaders,
  WireHttpBody,
  WireHttpTrailers,
  ProcessingRequestKind,
  ProcessingRequest,
  WireHeaderValueOption,
  WireHeaderMutation,
  WireStreamedBodyResponse,
  WireCommonResponse,
  WireImmediateResponse,
  ProcessingResponse,
} from './messages.js';
export { valueToJson, structToJson, readAddressList, readString, namespaceStruct } from './struct.js';
export { headerMapToRecord, setHeader } from './headers.js';
export { STREAMED_BODY_CHUNK_BYTES, headersResponse, bodyChunkResponse, bodyChunkResponses, trailersResponse } from './responses.js';
export type { Direction, HeadersReply } from './responses.js';
export { immediateResponseFor, localImmediateResponse } from './immediate.js';
