import type { WireHeaderMap, WireHeaderValueOption } from './messages.js';

const utf8 = new TextDecoder();

/**
 * Turns an Envoy header map into a record with lower-case names. Values come from `raw_value`
 * (what Envoy sends by default) or else `value`; repeated names are joined with `,` as HTTP allows.
 * @public
 */
export function headerMapToRecord(map: WireHeaderMap | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const header of map?.headers ?? []) {
    const key = header.key.toLowerCase();
    const raw = header.raw_value;
    const value = raw !== undefined && raw.length > 0 ? utf8.decode(raw) : (header.value ?? '');
    const previous = out[key];
    out[key] = previous === undefined ? value : `${previous},${value}`;
  }
  return out;
}

/**
 * A `set_headers` entry. Envoy reads only `raw_value` in mutations and rejects entries with both
 * `value` and `raw_value`, so the value goes to `raw_value` alone; `append` stays unset (overwrite).
 * @public
 */
export function setHeader(key: string, value: string): WireHeaderValueOption {
  return { header: { key, raw_value: Buffer.from(value, 'utf8') } };
}
