import { SwitchyardError } from '../errors/switchyard-error.js';
import { decodeJsonObject, isJsonObject, jsonTypeOf, type JsonObject } from './fields.js';
import type { ParsedRequestBody, RequestParser, RequestParserInput } from './parser.js';
import { promptFromInput } from './prompt-shapes.js';

const GENERATE = 'generate';
const UINT32_MAX = 0xff_ff_ff_ff;

const bad = (field: string, message: string): SwitchyardError => new SwitchyardError('BAD_REQUEST', `invalid generate request: ${message}`, { field });

/** llm-d accepts exactly `generate` or `/generate` (one trailing slash trimmed): `/v1/generate` is not SGLang's route. */
function isGeneratePath(path: string): boolean {
  const trimmed = path.trim();
  const p = trimmed.endsWith('/') ? trimmed.slice(0, -1) : trimmed;
  return p === GENERATE || p === `/${GENERATE}`;
}

/** `input_ids`: required, a non-empty flat array of uint32 (a batch of id lists is not accepted, as in llm-d). */
function readInputIds(body: JsonObject): readonly number[] {
  const ids = body['input_ids'];
  if (ids === undefined || ids === null) throw bad('input_ids', 'input_ids must be provided');
  if (!Array.isArray(ids) || !ids.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= UINT32_MAX)) {
    throw bad('input_ids', 'input_ids must be an array of uint32 integers');
  }
  if (ids.length === 0) throw bad('input_ids', 'input_ids cannot be empty');
  return ids as readonly number[];
}

/** `extra_key` (SGLang's cache salt): absent, `null` or a string. */
function readExtraKey(body: JsonObject): string | undefined {
  const key = body['extra_key'];
  if (key === undefined || key === null) return undefined;
  if (typeof key !== 'string') throw bad('extra_key', `extra_key must be a string, got ${jsonTypeOf(key)}`);
  return key === '' ? undefined : key;
}

/**
 * `sampling_params.max_new_tokens`, read leniently as llm-d does: a malformed `sampling_params`
 * (a per-prompt list, wrong types) or a negative count means "not given", never a rejection.
 */
function readMaxNewTokens(body: JsonObject): number | undefined {
  const sampling = body['sampling_params'];
  if (!isJsonObject(sampling)) return undefined;
  const n = sampling['max_new_tokens'];
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** `stream` decodes into a Go bool in llm-d: `null` is false, any other non-boolean fails the body. */
function readStream(body: JsonObject): boolean {
  const stream = body['stream'];
  if (stream === undefined || stream === null) return false;
  if (typeof stream !== 'boolean') throw bad('stream', `stream must be a boolean, got ${jsonTypeOf(stream)}`);
  return stream;
}

/**
 * Parser for SGLang's native `/generate` API, pre-tokenised prompts only (llm-d's
 * `sglanghttp-parser`): `input_ids` (required), `sampling_params.max_new_tokens`, `extra_key` as
 * the cache salt, `stream`. The API has no model field, and like llm-d's parser it is not a
 * model-name rewriter: the body is forwarded as received. Usage comes back in `meta_info`, which
 * core's response reader reads. Any path other than `generate` / `/generate` is a 400.
 * @public
 * @category Request parsing
 */
export const sglangHttpParser: RequestParser = {
  type: 'sglanghttp-parser',
  paths: [GENERATE],
  parse(input: RequestParserInput): ParsedRequestBody {
    if (!isGeneratePath(input.path)) throw new SwitchyardError('BAD_REQUEST', `unsupported path: ${input.path}`, { field: 'path' });
    const body = decodeJsonObject(input.rawBody);
    const ids = readInputIds(body);
    const cacheSalt = readExtraKey(body);
    return {
      api: 'sglang-generate',
      model: '',
      stream: readStream(body),
      maxOutputTokens: readMaxNewTokens(body),
      prompt: promptFromInput(ids, 'input_ids'),
      cacheSalt,
      body: undefined,
    };
  },
};
