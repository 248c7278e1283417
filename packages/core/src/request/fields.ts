import { SwitchyardError } from '../errors/switchyard-error.js';

/**
 * A decoded JSON object body.
 * @public
 */
export type JsonObject = Readonly<Record<string, unknown>>;

// Non-fatal: invalid UTF-8 becomes U+FFFD, as Go's encoding/json does, rather than a hard error.
const decoder = new TextDecoder();

/**
 * Describes a JSON value's type for error messages (`null`, `array`, `string`, ...).
 * @public
 */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * True for a plain JSON object (not an array, not null).
 * @public
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Decodes a request body as UTF-8 JSON and checks it is an object.
 * @throws SwitchyardError `BAD_REQUEST` when the body is not valid JSON or not an object
 * @public
 */
export function decodeJsonObject(raw: Uint8Array): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(raw));
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new SwitchyardError('BAD_REQUEST', `request body is not valid JSON: ${detail}`, { cause: err });
  }
  if (!isJsonObject(value)) {
    throw new SwitchyardError('BAD_REQUEST', `request body must be a JSON object, got ${jsonTypeOf(value)}`);
  }
  return value;
}

/**
 * Decodes a body as a JSON object, or returns undefined when it is not one (never throws).
 * @public
 */
export function tryDecodeJsonObject(raw: Uint8Array): JsonObject | undefined {
  try {
    return decodeJsonObject(raw);
  } catch {
    return undefined;
  }
}

/** Builds the standard "wrong type" error naming the field path and the expected type. */
export function fieldTypeError(path: string, expected: string, value: unknown): SwitchyardError {
  return new SwitchyardError('BAD_REQUEST', `field "${path}" must be ${expected}, got ${jsonTypeOf(value)}`);
}

/**
 * Reads the required, non-empty string `model`.
 * @throws SwitchyardError `BAD_REQUEST` when it is missing, empty or not a string
 * @public
 */
export function readModel(body: JsonObject): string {
  const model = body['model'];
  if (model === undefined || model === null || model === '') {
    throw new SwitchyardError('BAD_REQUEST', 'missing required field "model"');
  }
  if (typeof model !== 'string') throw fieldTypeError('model', 'a non-empty string', model);
  return model;
}

/**
 * Reads an optional boolean (absent or `null` → undefined).
 * @throws SwitchyardError `BAD_REQUEST` on any other type
 * @public
 */
export function readOptionalBoolean(obj: JsonObject, key: string, path = key): boolean | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw fieldTypeError(path, 'a boolean', v);
  return v;
}

/**
 * Reads an optional string (absent or `null` → undefined).
 * @throws SwitchyardError `BAD_REQUEST` on any other type
 * @public
 */
export function readOptionalString(obj: JsonObject, key: string, path = key): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw fieldTypeError(path, 'a string', v);
  return v;
}

/**
 * Reads an optional non-negative integer (absent or `null` → undefined).
 * @throws SwitchyardError `BAD_REQUEST` on other types, negative or fractional numbers
 * @public
 */
export function readOptionalCount(obj: JsonObject, key: string, path = key): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new SwitchyardError('BAD_REQUEST', `field "${path}" must be a non-negative integer, got ${typeof v === 'number' ? String(v) : jsonTypeOf(v)}`);
  }
  return v;
}

/**
 * Reads the first present non-negative integer among `keys` (e.g. `max_completion_tokens` then
 * `max_tokens`); each present key is validated.
 * @public
 */
export function readFirstCount(obj: JsonObject, keys: readonly string[]): number | undefined {
  let found: number | undefined;
  for (const key of keys) {
    const v = readOptionalCount(obj, key);
    found ??= v;
  }
  return found;
}

/**
 * Reads an optional array (absent or `null` → undefined).
 * @throws SwitchyardError `BAD_REQUEST` on any other type
 * @public
 */
export function readOptionalArray(obj: JsonObject, key: string, path = key): readonly unknown[] | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw fieldTypeError(path, 'an array', v);
  return v as readonly unknown[];
}
