/**
 * TypeScript shapes of the ext_proc v3 messages as `@grpc/proto-loader` hands them over (field
 * names as in the .proto files, `oneofs: true` discriminators, bytes as `Buffer`/`Uint8Array`).
 * Only the fields the endpoint picker reads or writes are typed.
 */

/**
 * One header as Envoy sends it: the value is in `raw_value` (bytes), or in `value` for older proxies. @public
 * @category Codec
 */
export interface WireHeaderValue {
  /** Lower-case header name (pseudo headers start with `:`). */
  readonly key: string;
  /** UTF-8 value, when the proxy used the string field. */
  readonly value?: string | undefined;
  /** Raw value bytes; preferred over `value`. */
  readonly raw_value?: Uint8Array | undefined;
}

/**
 * A list of headers. @public
 * @category Codec
 */
export interface WireHeaderMap {
  /** The headers, in wire order. */
  readonly headers?: readonly WireHeaderValue[] | undefined;
}

/**
 * `google.protobuf.Value` in protobufjs object form (one member set). @public
 * @category Codec
 */
export interface WireValue {
  /** Null marker. */
  readonly nullValue?: number | string | undefined;
  /** Number. */
  readonly numberValue?: number | undefined;
  /** String. */
  readonly stringValue?: string | undefined;
  /** Boolean. */
  readonly boolValue?: boolean | undefined;
  /** Nested struct. */
  readonly structValue?: WireStruct | undefined;
  /** List. */
  readonly listValue?: { readonly values?: readonly WireValue[] | undefined } | undefined;
}

/**
 * `google.protobuf.Struct` in protobufjs object form. @public
 * @category Codec
 */
export interface WireStruct {
  /** Fields by name. */
  readonly fields?: Readonly<Record<string, WireValue>> | undefined;
}

/**
 * `envoy.config.core.v3.Metadata`: metadata by filter namespace. @public
 * @category Codec
 */
export interface WireMetadata {
  /** Untyped metadata per namespace (e.g. `envoy.lb`, `envoy.lb.subset_hint`). */
  readonly filter_metadata?: Readonly<Record<string, WireStruct>> | undefined;
}

/**
 * Request or response headers. @public
 * @category Codec
 */
export interface WireHttpHeaders {
  /** The headers. */
  readonly headers?: WireHeaderMap | undefined;
  /** True when no body follows. */
  readonly end_of_stream?: boolean | undefined;
}

/**
 * One body chunk. @public
 * @category Codec
 */
export interface WireHttpBody {
  /** Chunk bytes. */
  readonly body?: Uint8Array | undefined;
  /** True on the last chunk. */
  readonly end_of_stream?: boolean | undefined;
}

/**
 * Trailers. @public
 * @category Codec
 */
export interface WireHttpTrailers {
  /** The trailers. */
  readonly trailers?: WireHeaderMap | undefined;
}

/**
 * Which member of `ProcessingRequest.request` is set. @public
 * @category Codec
 */
export type ProcessingRequestKind =
  | 'request_headers'
  | 'response_headers'
  | 'request_body'
  | 'response_body'
  | 'request_trailers'
  | 'response_trailers';

/**
 * A message from Envoy to the processor. @public
 * @category Codec
 */
export interface ProcessingRequest {
  /** Discriminator of the oneof (set by proto-loader with `oneofs: true`). */
  readonly request?: ProcessingRequestKind | undefined;
  /** Request headers. */
  readonly request_headers?: WireHttpHeaders | undefined;
  /** Response headers. */
  readonly response_headers?: WireHttpHeaders | undefined;
  /** A request body chunk. */
  readonly request_body?: WireHttpBody | undefined;
  /** A response body chunk. */
  readonly response_body?: WireHttpBody | undefined;
  /** Request trailers. */
  readonly request_trailers?: WireHttpTrailers | undefined;
  /** Response trailers. */
  readonly response_trailers?: WireHttpTrailers | undefined;
  /** Metadata the proxy forwards (subset hint, served endpoint). */
  readonly metadata_context?: WireMetadata | undefined;
  /** True when the proxy ignores replies (observability mode). */
  readonly observability_mode?: boolean | undefined;
}

/**
 * `envoy.config.core.v3.HeaderValueOption` with `raw_value` set (Envoy reads `raw_value`). @public
 * @category Codec
 */
export interface WireHeaderValueOption {
  /** Header to set; only `key` and `raw_value` are filled. */
  readonly header: { readonly key: string; readonly raw_value: Uint8Array };
}

/**
 * Header edits. @public
 * @category Codec
 */
export interface WireHeaderMutation {
  /** Headers to set (overwrite). */
  readonly set_headers?: readonly WireHeaderValueOption[];
  /** Header names to remove. */
  readonly remove_headers?: readonly string[];
}

/**
 * A streamed body chunk in a FULL_DUPLEX_STREAMED reply. @public
 * @category Codec
 */
export interface WireStreamedBodyResponse {
  /** Chunk bytes. */
  readonly body: Uint8Array;
  /** True on the last chunk only. */
  readonly end_of_stream: boolean;
}

/**
 * The common part of header and body replies. @public
 * @category Codec
 */
export interface WireCommonResponse {
  /** Header edits. */
  readonly header_mutation?: WireHeaderMutation;
  /** Body replacement; in FULL_DUPLEX_STREAMED always `streamed_response`. */
  readonly body_mutation?: { readonly streamed_response: WireStreamedBodyResponse };
  /** Re-run route selection because a header that affects routing changed. */
  readonly clear_route_cache?: boolean;
}

/**
 * A local reply that ends the HTTP request at the proxy. @public
 * @category Codec
 */
export interface WireImmediateResponse {
  /** HTTP status (the enum value equals the code). */
  readonly status: { readonly code: number };
  /** Headers of the local reply. */
  readonly headers?: WireHeaderMutation;
  /** Body of the local reply. */
  readonly body?: Uint8Array;
  /** Fills `%RESPONSE_CODE_DETAILS%` in access logs; no whitespace. */
  readonly details?: string;
}

/**
 * A message from the processor to Envoy (exactly one member of the oneof set). @public
 * @category Codec
 */
export interface ProcessingResponse {
  /** Reply to request headers. */
  readonly request_headers?: { readonly response: WireCommonResponse };
  /** Reply to response headers. */
  readonly response_headers?: { readonly response: WireCommonResponse };
  /** Reply to a request body chunk. */
  readonly request_body?: { readonly response: WireCommonResponse };
  /** Reply to a response body chunk. */
  readonly response_body?: { readonly response: WireCommonResponse };
  /** Reply to request trailers. */
  readonly request_trailers?: { readonly header_mutation?: WireHeaderMutation };
  /** Reply to response trailers. */
  readonly response_trailers?: { readonly header_mutation?: WireHeaderMutation };
  /** Local reply ending the request. */
  readonly immediate_response?: WireImmediateResponse;
  /** Dynamic metadata for other filters and the load balancer (`envoy.lb`). */
  readonly dynamic_metadata?: WireStruct;
}
