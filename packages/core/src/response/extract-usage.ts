import type { Usage } from '../scheduling/plugins.js';
import { usageFromWire } from './usage.js';
import { FALLBACK, scanUsage } from './usage-scan.js';

const USAGE_KEY = Buffer.from('"usage"');

const view = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/**
 * The usage of a JSON response document in bytes (a whole body, its tail, or one SSE event): finds
 * the last unescaped `"usage": {...}` with native byte search and reads only that object (usually
 * without `JSON.parse`), so a large body is never parsed or converted to a string. The last one
 * is the document's own: OpenAI and the Responses API write `usage` after the output, Anthropic's
 * `message_start` nests it as `message.usage`. `"usage": null` and malformed objects give undefined.
 * @param bytes - JSON bytes (any UTF-8; only ASCII is inspected)
 * @category Response
 * @public
 */
export function extractUsage(bytes: Uint8Array): Usage | undefined {
  const buf = view(bytes);
  let at = buf.lastIndexOf(USAGE_KEY);
  while (at > 0 && buf[at - 1] === 0x5c /* \ */) at = buf.lastIndexOf(USAGE_KEY, at - 1);
  if (at < 0) return undefined;
  let i = at + USAGE_KEY.length;
  while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x3a || buf[i] === 0x09 || buf[i] === 0x0a || buf[i] === 0x0d)) i++;
  if (buf[i] !== 0x7b) return undefined;
  const scanned = scanUsage(buf, i);
  if (scanned !== FALLBACK) return scanned;
  // usage objects hold only numbers and nested objects, so counting braces finds the end.
  let depth = 0;
  for (let j = i; j < buf.length; j++) {
    const c = buf[j];
    if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) {
      try {
        return usageFromWire(JSON.parse(buf.toString('utf8', i, j + 1)));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
