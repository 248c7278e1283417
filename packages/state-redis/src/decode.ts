import type { PeerSnapshot, ReceivedRecord, ReplicaLoad, SharedRecord } from '@switchyard/core';

/**
 * A replica's load snapshot as stored in the load hash: its `seq`, the writer's wall-clock time
 * (only used to delete snapshots of replicas long gone) and its load.
 * @internal
 */
export interface StoredSnapshot {
  readonly s: number;
  readonly t: number;
  readonly l: ReplicaLoad;
}

function parse(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One field of the load hash, or undefined when it is not a snapshot (the store is input: a
 * foreign writer or a half-written value must not break the sync). Counts inside are checked
 * again where they are summed.
 * @internal
 */
export function decodeSnapshot(value: unknown): StoredSnapshot | undefined {
  const v = parse(value);
  if (!isObject(v) || typeof v['s'] !== 'number' || typeof v['t'] !== 'number' || !isObject(v['l'])) return undefined;
  for (const byEndpoint of Object.values(v['l'])) if (!isObject(byEndpoint)) return undefined;
  return v as unknown as StoredSnapshot;
}

/**
 * The peers in an `HGETALL` reply (RESP2: a flat field/value list), without this replica, plus
 * the fields to delete (unreadable, or not updated for `forgetAfterMs`).
 * @internal
 */
export function decodePeers(reply: unknown, self: string, nowWallMs: number, forgetAfterMs: number): { peers: PeerSnapshot[]; stale: string[] } {
  const peers: PeerSnapshot[] = [];
  const stale: string[] = [];
  if (!Array.isArray(reply)) return { peers, stale };
  const list = reply as unknown[];
  for (let i = 0; i + 1 < list.length; i += 2) {
    const field = list[i];
    if (typeof field !== 'string' || field === self) continue;
    const snap = decodeSnapshot(list[i + 1]);
    if (snap === undefined || nowWallMs - snap.t > forgetAfterMs) {
      stale.push(field);
      continue;
    }
    peers.push({ replicaId: field, seq: snap.s, load: snap.l });
  }
  return { peers, stale };
}

/**
 * The records in an `XREAD` reply (RESP2: `[[key, [[id, [field, value, …]], …]]]`, or null when
 * nothing is new), without this replica's own, and the last entry id read (the next cursor).
 * Malformed entries are skipped and counted in `invalid`.
 * @internal
 */
export function decodeEvents(reply: unknown, self: string): { records: ReceivedRecord[]; lastId: string | undefined; invalid: number } {
  const records: ReceivedRecord[] = [];
  let lastId: string | undefined;
  let invalid = 0;
  const stream = Array.isArray(reply) ? (reply[0] as unknown) : undefined;
  const entries = Array.isArray(stream) ? (stream[1] as unknown) : undefined;
  if (!Array.isArray(entries)) return { records, lastId, invalid };
  for (const entry of entries) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) {
      invalid++;
      continue;
    }
    lastId = entry[0];
    const fields = entry[1] as unknown[];
    let replicaId: unknown;
    let data: unknown;
    for (let i = 0; i + 1 < fields.length; i += 2) {
      if (fields[i] === 'r') replicaId = fields[i + 1];
      else if (fields[i] === 'd') data = fields[i + 1];
    }
    if (replicaId === self) continue;
    const batch = parse(data);
    if (typeof replicaId !== 'string' || !Array.isArray(batch)) {
      invalid++;
      continue;
    }
    for (const r of batch as unknown[]) {
      if (isObject(r) && typeof r['channel'] === 'string') records.push({ replicaId, channel: r['channel'], data: r['data'] });
      else invalid++;
    }
  }
  return { records, lastId, invalid };
}

/** The wire form of a batch of records (one stream entry per sync). @internal */
export function encodeRecords(records: readonly SharedRecord[]): string {
  return JSON.stringify(records.map((r) => ({ channel: r.channel, data: r.data })));
}
