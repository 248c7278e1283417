import { isControlHeader } from './control.js';
import { CLASSIFICATION_HEADERS, type ClassificationField } from './names.js';

/**
 * Headers as adapters receive them: node's `IncomingHttpHeaders`, a `Headers` object, or a plain
 * record. Names are matched case-insensitively; array values are joined with `, `.
 * @public
 * @category Header contract
 */
export type HeaderInput =
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | { forEach(cb: (value: string, name: string) => void): void };

/**
 * Normalises any {@link HeaderInput} to a record with lower-case names and string values.
 * @public
 * @category Header contract
 */
export function normalizeHeaders(input: HeaderInput): Record<string, string> {
  // A class instance, not `{}`: the record lives as long as its request (see parseRequest).
  const out = new HeaderRecord() as Record<string, string>;
  if (typeof (input as { forEach?: unknown }).forEach === 'function' && !(input instanceof Map) && !isPlainRecord(input)) {
    (input as { forEach(cb: (value: string, name: string) => void): void }).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  const record = input as Record<string, string | readonly string[] | undefined>;
  for (const name in record) {
    if (!Object.hasOwn(record, name)) continue;
    const value = record[name];
    if (value === undefined) continue;
    out[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/** Lower-case header names to values (an empty class: its instances get their keys per request). */
// eslint-disable-next-line @typescript-eslint/no-extraneous-class
class HeaderRecord {}

function isPlainRecord(v: unknown): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Reads a classification header: the canonical name if present (even when empty), else the
 * deprecated alias, else `undefined`.
 * @param headers - lower-case header record (see {@link normalizeHeaders})
 * @public
 * @category Header contract
 */
export function readClassificationHeader(headers: Readonly<Record<string, string>>, field: ClassificationField): string | undefined {
  const spec = CLASSIFICATION_HEADERS[field];
  const canonical = headers[spec.canonical];
  if (canonical !== undefined) return canonical;
  return spec.alias === undefined ? undefined : headers[spec.alias];
}

/**
 * Returns a copy of `headers` without any control header (see {@link isControlHeader}: the
 * reserved prefixes and the named list), so client copies never reach a model server.
 * @public
 * @category Header contract
 */
export function stripControlHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) if (!isControlHeader(name)) out[name] = headers[name] as string;
  return out;
}
