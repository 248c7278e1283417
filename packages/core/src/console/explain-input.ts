import { readFile } from 'node:fs/promises';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { parsePoolRecording, type PoolRecording } from './replay.js';

/**
 * Reads a recorded pool for `explain`: a file saved from `GET /console/api/snapshot`, or the
 * `http(s)://` URL of a running console's snapshot (fetched once, 10 s timeout).
 * @throws SwitchyardError `CONFIG_INVALID` naming `--metrics` and what is wrong
 * @public
 * @category Decision console
 */
export async function readPoolRecording(where: string): Promise<PoolRecording> {
  let text: string;
  if (/^https?:\/\//.test(where)) {
    const r = await fetch(where, { signal: AbortSignal.timeout(10_000) });
    if (!r.ok) throw new SwitchyardError('CONFIG_INVALID', `--metrics ${where}: HTTP ${String(r.status)}`);
    text = await r.text();
  } else text = await readFile(where, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', `--metrics ${where}: not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parsePoolRecording(json, `--metrics ${where}`);
}

/**
 * Parses repeated `--header 'name: value'` flags into lower-case header names.
 * @throws SwitchyardError `CONFIG_INVALID` for a flag without `name:`
 * @public
 */
export function parseHeaderFlags(values: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of values ?? []) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw new SwitchyardError('CONFIG_INVALID', `--header: expected "name: value", got "${h}"`);
    out[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
  }
  return out;
}
