import { SwitchyardError, isSwitchyardError } from '../errors/switchyard-error.js';
import { normalizeHeaders, type HeaderInput } from '../headers/header-bag.js';
import { REQUEST_ID_HEADER } from '../headers/names.js';
import { anthropicParser } from './anthropic-parser.js';
import { utf8ByteLength } from './estimate.js';
import { DEFAULT_MAX_JSON_DEPTH, exceedsJsonDepth } from './json-depth.js';
import { openAIParser } from './openai-parser.js';
import type { ParsedRequestBody, RequestParser } from './parser.js';
import { passthroughParser } from './passthrough-parser.js';
import type { InferenceRequest } from './types.js';
import { vllmHttpParser } from './vllm-parser.js';

/**
 * Default body limit of {@link parseRequest}: 16 MiB.
 * @public
 * @category Request parsing
 */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Path used when neither the caller nor any path header names one (llm-d's default).
 * @public
 * @category Request parsing
 */
export const DEFAULT_REQUEST_PATH = '/v1/completions';

/**
 * The default parser list, in llm-d's order: OpenAI, Anthropic, vLLM HTTP, passthrough (fallback).
 * @public
 * @category Request parsing
 */
export const BUILTIN_REQUEST_PARSERS: readonly RequestParser[] = [openAIParser, anthropicParser, vllmHttpParser, passthroughParser];

/**
 * What {@link parseRequest} needs from a transport.
 * @public
 * @category Request parsing
 */
export interface RequestInput {
  /** Request path; when absent, read from `:path`, `x-original-path` or `x-forwarded-path`. */
  readonly path?: string | undefined;
  /** Request headers in any {@link HeaderInput} form. */
  readonly headers: HeaderInput;
  /** Body bytes (or text, encoded as UTF-8); absent or empty = no body. */
  readonly body?: Uint8Array | string | undefined;
}

/**
 * Options of {@link parseRequest}.
 * @public
 * @category Request parsing
 */
export interface ParseOptions {
  /** Largest accepted body in bytes. @defaultValue 16 MiB ({@link DEFAULT_MAX_BODY_BYTES}) */
  readonly maxBodyBytes?: number;
  /**
   * Parsers to choose from. @defaultValue {@link BUILTIN_REQUEST_PARSERS}. A list without a
   * fallback parser (one claiming no paths) rejects unclaimed paths with 400.
   */
  readonly parsers?: readonly RequestParser[];
  /** Request-id generator used when `x-request-id` is absent. @defaultValue `crypto.randomUUID` */
  readonly generateId?: () => string;
  /**
   * Deepest nesting of arrays and objects accepted in the body; deeper bodies are a 400 naming
   * the limit. @defaultValue 512 ({@link DEFAULT_MAX_JSON_DEPTH})
   */
  readonly maxJsonDepth?: number;
}

/**
 * Resolves the request path: `explicit` ‖ `:path` ‖ `x-original-path` ‖ `x-forwarded-path` ‖
 * `/v1/completions`, with the query string stripped.
 * @param headers - lower-case header record
 * @public
 */
export function resolveRequestPath(headers: Readonly<Record<string, string>>, explicit?: string): string {
  const raw = nonEmpty(explicit) ?? nonEmpty(headers[':path']) ?? nonEmpty(headers['x-original-path']) ?? nonEmpty(headers['x-forwarded-path']) ?? DEFAULT_REQUEST_PATH;
  const q = raw.indexOf('?');
  return q === -1 ? raw : raw.slice(0, q);
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s === '' ? undefined : s;
}

/**
 * The parser for `path`: the longest claimed suffix wins (plain `endsWith`; ties go to the earlier
 * parser); otherwise the first parser that claims no paths; otherwise undefined.
 * @public
 */
export function selectParser(path: string, parsers: readonly RequestParser[]): { parser: RequestParser; matchedSuffix: string | undefined } | undefined {
  let best: RequestParser | undefined;
  let bestSuffix = '';
  let fallback: RequestParser | undefined;
  for (const parser of parsers) {
    if (parser.paths.length === 0) {
      fallback ??= parser;
      continue;
    }
    for (const suffix of parser.paths) {
      if (suffix.length > bestSuffix.length && path.endsWith(suffix)) {
        best = parser;
        bestSuffix = suffix;
      }
    }
  }
  if (best !== undefined) return { parser: best, matchedSuffix: bestSuffix };
  return fallback === undefined ? undefined : { parser: fallback, matchedSuffix: undefined };
}

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** Bodyless requests (GET /v1/models, health probes) are not parsed; they route like passthrough. */
const NO_BODY: ParsedRequestBody = {
  api: 'passthrough',
  model: '',
  stream: false,
  maxOutputTokens: undefined,
  prompt: { kind: 'none' },
  cacheSalt: undefined,
  body: undefined,
};

// Web Crypto's UUID (global in Node 20, browsers and workers), so core needs no node: import here.
const randomUUID = (): string => globalThis.crypto.randomUUID();

/**
 * Parses an inference request from transport-level pieces into an {@link InferenceRequest}.
 * Every failure is a {@link SwitchyardError}: `BAD_REQUEST` (malformed JSON, non-object body,
 * missing `model`, a field of the wrong type, an unclaimed path with no fallback parser) or
 * `PAYLOAD_TOO_LARGE`. No input makes it throw anything else.
 * @example
 * ```ts
 * const req = parseRequest({ path: '/v1/chat/completions', headers: req.headers, body });
 * req.model; req.prompt; req.maxOutputTokens;
 * ```
 * @public
 * @category Request parsing
 */
export function parseRequest(input: RequestInput, options: ParseOptions = {}): InferenceRequest {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const headers = normalizeHeaders(input.headers);
  const path = resolveRequestPath(headers, input.path);
  const bodyIn = input.body;
  const size = bodyIn === undefined ? 0 : typeof bodyIn === 'string' ? utf8ByteLength(bodyIn) : bodyIn.byteLength;
  if (size > maxBodyBytes) {
    throw new SwitchyardError('PAYLOAD_TOO_LARGE', `request body is ${size} bytes, over the limit of ${maxBodyBytes} bytes (maxBodyBytes)`);
  }
  const rawBody = bodyIn === undefined ? EMPTY : typeof bodyIn === 'string' ? encoder.encode(bodyIn) : bodyIn;
  let parsed = NO_BODY;
  if (rawBody.byteLength > 0) {
    const chosen = selectParser(path, options.parsers ?? BUILTIN_REQUEST_PARSERS);
    if (chosen === undefined) throw new SwitchyardError('BAD_REQUEST', `no request parser claims path "${path}"`);
    try {
      parsed = chosen.parser.parse({ path, matchedSuffix: chosen.matchedSuffix, headers, rawBody });
    } catch (err) {
      if (isSwitchyardError(err)) throw err;
      // e.g. a stack overflow serialising absurdly nested tools; still a client error, not a crash.
      const detail = err instanceof Error ? err.message : String(err);
      throw new SwitchyardError('BAD_REQUEST', `request body could not be parsed by ${chosen.parser.type}: ${detail}`, { cause: err });
    }
    const maxDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
    if (parsed.body !== undefined && exceedsJsonDepth(parsed.body, maxDepth)) {
      throw new SwitchyardError('BAD_REQUEST', `request body nests arrays/objects deeper than the limit of ${maxDepth} levels (maxJsonDepth)`);
    }
  }
  const headerId = headers[REQUEST_ID_HEADER];
  const id = headerId !== undefined && headerId !== '' ? headerId : (options.generateId ?? randomUUID)();
  return new ParsedRequest(id, path, headers, parsed, rawBody);
}

/**
 * The parsed request. A class rather than an object literal on purpose: V8 may pretenure an
 * object-literal allocation site whose objects outlive a young-generation GC (a request lives
 * until its response ends), and a pretenured request then keeps everything it references alive
 * through every scavenge until the next full GC. In the gateway that promoted about 2.5 MB per
 * scavenge and cost 10-15 µs per request; class instances have no allocation site to pretenure.
 */
class ParsedRequest implements InferenceRequest {
  readonly id: string;
  readonly path: string;
  readonly api: InferenceRequest['api'];
  readonly headers: Readonly<Record<string, string>>;
  readonly model: string;
  readonly stream: boolean;
  readonly maxOutputTokens: number | undefined;
  readonly prompt: InferenceRequest['prompt'];
  readonly cacheSalt: string | undefined;
  readonly byteSize: number;
  readonly body: Readonly<Record<string, unknown>> | undefined;
  readonly rawBody: Uint8Array;

  constructor(id: string, path: string, headers: Readonly<Record<string, string>>, parsed: ParsedRequestBody, rawBody: Uint8Array) {
    this.id = id;
    this.path = path;
    this.api = parsed.api;
    this.headers = headers;
    this.model = parsed.model;
    this.stream = parsed.stream;
    this.maxOutputTokens = parsed.maxOutputTokens;
    this.prompt = parsed.prompt;
    this.cacheSalt = parsed.cacheSalt;
    this.byteSize = rawBody.byteLength;
    this.body = parsed.body;
    this.rawBody = rawBody;
  }
}
