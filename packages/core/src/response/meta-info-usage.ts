import type { Usage } from '../scheduling/plugins.js';
import { usageOf } from './usage.js';

const META_INFO_KEY = Buffer.from('"meta_info"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The usage SGLang's native `/generate` reports in a `meta_info` object (`prompt_tokens`,
 * `completion_tokens`, `cached_tokens`); undefined when neither count is there, as llm-d's
 * `sglanghttp-parser` reads it. With `finishedOnly`, a `meta_info` whose `finish_reason` is
 * absent or null counts as no usage: in a stream only the last event carries a finish reason,
 * and llm-d takes usage from that event alone.
 */
export function metaInfoUsage(metaInfo: unknown, finishedOnly = false): Usage | undefined {
  if (!isObject(metaInfo)) return undefined;
  if (finishedOnly && (metaInfo['finish_reason'] === undefined || metaInfo['finish_reason'] === null)) return undefined;
  return usageOf(count(metaInfo['prompt_tokens']), count(metaInfo['completion_tokens']), count(metaInfo['cached_tokens']));
}

/** Index just past the object opening at `buf[start]`, skipping braces inside strings; -1 when it is not closed. */
function objectEnd(buf: Buffer, start: number): number {
  let depth = 0;
  for (let i = start; i < buf.length; i++) {
    const c = buf[i];
    if (c === QUOTE) {
      for (i++; i < buf.length && buf[i] !== QUOTE; i++) if (buf[i] === BACKSLASH) i++;
    } else if (c === OPEN) depth++;
    else if (c === CLOSE && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * The usage of the last unescaped `"meta_info": {...}` in a JSON document's bytes (a body, its
 * tail, or one SSE event), reading only that object; undefined when there is none or it is
 * malformed. `meta_info` holds strings and nested objects (ids, finish reasons), so its end is
 * found string-aware and the slice parsed with `JSON.parse`.
 * @param finishedOnly - see {@link metaInfoUsage}
 */
export function extractMetaInfoUsage(bytes: Uint8Array, finishedOnly = false): Usage | undefined {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = buf.lastIndexOf(META_INFO_KEY);
  while (at > 0 && buf[at - 1] === BACKSLASH) at = buf.lastIndexOf(META_INFO_KEY, at - 1);
  if (at < 0) return undefined;
  let i = at + META_INFO_KEY.length;
  while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x3a || buf[i] === 0x09 || buf[i] === 0x0a || buf[i] === 0x0d)) i++;
  if (buf[i] !== OPEN) return undefined;
  const end = objectEnd(buf, i);
  if (end < 0) return undefined;
  try {
    return metaInfoUsage(JSON.parse(buf.toString('utf8', i, end)), finishedOnly);
  } catch {
    return undefined;
  }
}
