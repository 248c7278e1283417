import type { EngineBlockHash } from './types.js';

/**
 * Folds a byte-string hash to its last 8 bytes read big-endian (llm-d's rule; it equals vLLM's
 * integer form of the same digest).
 * @public
 * @category KV events
 */
export function foldHashBytes(bytes: Uint8Array): bigint {
  let v = 0n;
  const start = Math.max(0, bytes.byteLength - 8);
  for (let i = start; i < bytes.byteLength; i++) v = (v << 8n) | BigInt(bytes[i] as number);
  return v;
}

/**
 * Normalises a decoded hash value: integers pass (numbers must be integers), bigints are reduced
 * to 64 bits, byte strings are folded. Returns undefined for anything else.
 * @public
 * @category KV events
 */
export function toEngineHash(value: unknown): EngineBlockHash | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'bigint') return BigInt.asUintN(64, value);
  if (value instanceof Uint8Array) return foldHashBytes(value);
  return undefined;
}

/**
 * Numeric handle of an engine hash for index maps: its low 53 bits, so a hash seen as a number
 * and as a bigint (or signed and unsigned) gets the same handle.
 * @public
 * @category KV events
 */
export function engineHashHandle(hash: EngineBlockHash): number {
  if (typeof hash === 'number' && hash >= 0 && hash <= Number.MAX_SAFE_INTEGER) return hash;
  return Number(BigInt.asUintN(53, BigInt(hash)));
}
