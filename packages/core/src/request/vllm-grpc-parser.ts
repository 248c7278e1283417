import { SwitchyardError } from '../errors/switchyard-error.js';
import { grpcMessage, varint, wireFields, type WireField } from './grpc-frame.js';
import type { ParsedRequestBody, RequestParser, RequestParserInput } from './parser.js';
import { NO_PROMPT, promptFromInput } from './prompt-shapes.js';
import type { PromptView } from './types.js';

const GENERATE = 'vllm.grpc.engine.VllmEngine/Generate';
const EMBED = 'vllm.grpc.engine.VllmEngine/Embed';

const VARINT = 0;
const LENGTH_DELIMITED = 2;
const UINT32_RANGE = 2 ** 32;

/** Field numbers of `vllm_engine.proto` that routing reads. */
const GENERATE_FIELDS = { tokenized: 2, text: 3, samplingParams: 4, stream: 5 } as const;
const TOKENIZED_FIELDS = { originalText: 1, inputIds: 2 } as const;
const SAMPLING_MAX_TOKENS = 8;
const EMBED_TOKENIZED = 2;

const bad = (message: string, field: string): SwitchyardError => new SwitchyardError('BAD_REQUEST', message, { field });

/** A uint32 as protobuf decodes one from a wider varint: the low 32 bits. */
const asUint32 = (v: number): number => v % UINT32_RANGE;

/** The bytes of a length-delimited field (the framing check guarantees them for wire type 2). */
const bytesOf = (f: WireField): Uint8Array => f.bytes ?? new Uint8Array(0);

/** `repeated uint32`, accepting both the packed (wire type 2) and the unpacked (wire type 0) encoding, as protobuf decoders must. */
function readUint32s(f: WireField, into: number[], what: string, field: string): void {
  if (f.wireType === VARINT) {
    into.push(asUint32(f.value ?? 0));
    return;
  }
  if (f.wireType !== LENGTH_DELIMITED) throw bad(`${what}: malformed protobuf message`, field);
  const packed = bytesOf(f);
  let at = 0;
  while (at < packed.length) {
    const v = varint(packed, at);
    if (v === undefined) throw bad(`${what}: malformed protobuf message`, field);
    into.push(asUint32(v[0]));
    at = v[1];
  }
}

/** A `TokenizedInput { original_text = 1; repeated uint32 input_ids = 2 }`; repeated occurrences merge as protobuf merges them. */
function readTokenized(message: Uint8Array, what: string, into: number[]): void {
  for (const f of wireFields(message, what, 'tokenized')) {
    if (f.number === TOKENIZED_FIELDS.inputIds) readUint32s(f, into, what, 'tokenized.input_ids');
    else if (f.number === TOKENIZED_FIELDS.originalText && f.wireType === LENGTH_DELIMITED) utf8(bytesOf(f), what, 'tokenized.original_text');
  }
}

/** proto3 `string` fields must hold valid UTF-8: Go's decoder rejects the message otherwise. */
function utf8(bytes: Uint8Array, what: string, field: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw bad(`${what}: string field contains invalid UTF-8`, field);
  }
}

/** `SamplingParams.max_tokens = 8` (optional uint32); later occurrences win, as in protobuf. */
function readMaxTokens(message: Uint8Array, what: string, current: number | undefined): number | undefined {
  let max = current;
  for (const f of wireFields(message, what, 'sampling_params')) {
    if (f.number === SAMPLING_MAX_TOKENS && f.wireType === VARINT) max = asUint32(f.value ?? 0);
  }
  return max;
}

/** The last-set member of `oneof input`: later occurrences of either member replace the earlier one. */
type GenerateInput = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'tokenized'; readonly parts: Uint8Array[] } | undefined;

function parseGenerate(message: Uint8Array): ParsedRequestBody {
  const what = 'unmarshaling GenerateRequest';
  let input: GenerateInput;
  let stream = false;
  let maxOutputTokens: number | undefined;
  for (const f of wireFields(message, what, 'body')) {
    if (f.number === GENERATE_FIELDS.text && f.wireType === LENGTH_DELIMITED) {
      input = { kind: 'text', text: utf8(bytesOf(f), what, 'text') };
    } else if (f.number === GENERATE_FIELDS.tokenized && f.wireType === LENGTH_DELIMITED) {
      // A repeated message field of a oneof merges into the member already set, else starts afresh.
      input = input?.kind === 'tokenized' ? { kind: 'tokenized', parts: [...input.parts, bytesOf(f)] } : { kind: 'tokenized', parts: [bytesOf(f)] };
    } else if (f.number === GENERATE_FIELDS.samplingParams && f.wireType === LENGTH_DELIMITED) {
      maxOutputTokens = readMaxTokens(bytesOf(f), what, maxOutputTokens);
    } else if (f.number === GENERATE_FIELDS.stream && f.wireType === VARINT) {
      stream = (f.value ?? 0) !== 0;
    }
  }
  if (input === undefined) throw bad('not supported request inputType', 'input');
  let prompt: PromptView;
  if (input.kind === 'text') {
    prompt = promptFromInput(input.text, 'text');
  } else {
    const ids: number[] = [];
    for (const part of input.parts) readTokenized(part, what, ids);
    prompt = promptFromInput(ids, 'tokenized.input_ids');
  }
  return { api: 'vllm-generate', model: '', stream, maxOutputTokens, prompt, cacheSalt: undefined, body: undefined };
}

function parseEmbed(message: Uint8Array): ParsedRequestBody {
  const what = 'unmarshaling EmbedRequest';
  const parts: Uint8Array[] = [];
  for (const f of wireFields(message, what, 'body')) {
    if (f.number === EMBED_TOKENIZED && f.wireType === LENGTH_DELIMITED) parts.push(bytesOf(f));
  }
  if (parts.length === 0) throw bad('missing tokenized input in EmbedRequest', 'tokenized');
  const ids: number[] = [];
  for (const part of parts) readTokenized(part, what, ids);
  return { api: 'openai-embeddings', model: '', stream: false, maxOutputTokens: undefined, prompt: promptFromInput(ids, 'tokenized.input_ids'), cacheSalt: undefined, body: undefined };
}

/**
 * Parser for vLLM's gRPC engine API (llm-d's `vllmgrpc-parser`), request side: decodes the gRPC
 * frame and the `vllm.grpc.engine` protobuf of `VllmEngine/Generate` (`text` as a completions
 * prompt, `tokenized.input_ids` as token ids, `stream`, `sampling_params.max_tokens`) and
 * `VllmEngine/Embed` (`tokenized.input_ids`, required). The messages carry no model name, so the
 * model is `''`; the body is forwarded as received. Any other method is forwarded unread, after
 * the frame itself is checked, as in llm-d. Bad framing or protobuf is a 400 naming the field.
 * Not read yet: multimodal placeholders and hashes (`mm_inputs`), and usage from the protobuf
 * responses.
 * @public
 * @category Request parsing
 */
export const vllmGrpcParser: RequestParser = {
  type: 'vllmgrpc-parser',
  paths: [GENERATE, EMBED],
  parse(input: RequestParserInput): ParsedRequestBody {
    const message = grpcMessage(input.rawBody);
    if (input.path === `/${GENERATE}`) return parseGenerate(message);
    if (input.path === `/${EMBED}`) return parseEmbed(message);
    return { api: 'passthrough', model: '', stream: false, maxOutputTokens: undefined, prompt: NO_PROMPT, cacheSalt: undefined, body: undefined };
  },
};
