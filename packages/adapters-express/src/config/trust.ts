import type { IncomingMessage } from 'node:http';
import { SwitchyardError } from '@switchyard/core';

const ipv4 = (s: string): number | undefined => {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
};

/** Strips the IPv4-mapped IPv6 prefix node reports for dual-stack sockets. */
const unmap = (ip: string): string => (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);

/**
 * Builds a predicate telling whether a client address is in `entries` (exact IPs, IPv4 or IPv6,
 * and IPv4 CIDRs such as `10.0.0.0/8`).
 * @throws SwitchyardError `CONFIG_INVALID` naming a malformed entry
 * @public
 */
export function addressMatcher(entries: readonly string[]): (ip: string | undefined) => boolean {
  const exact = new Set<string>();
  const ranges: { base: number; mask: number }[] = [];
  for (const [i, raw] of entries.entries()) {
    const entry = raw.trim();
    const slash = entry.indexOf('/');
    if (slash === -1) {
      exact.add(unmap(entry.toLowerCase()));
      continue;
    }
    const base = ipv4(entry.slice(0, slash));
    const bits = Number(entry.slice(slash + 1));
    if (base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) {
      throw new SwitchyardError('CONFIG_INVALID', `gateway.trust.trustedClients[${i}]: "${raw}" is not an IP or IPv4 CIDR`);
    }
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    ranges.push({ base: (base & mask) >>> 0, mask });
  }
  return (ip) => {
    if (ip === undefined) return false;
    const a = unmap(ip.toLowerCase());
    if (exact.has(a)) return true;
    const n = ipv4(a);
    return n !== undefined && ranges.some((r) => ((n & r.mask) >>> 0) === r.base);
  };
}

/**
 * The gateway's trust predicate from the config: everyone, nobody, or listed client addresses.
 * @public
 */
export function trustPredicate(trust: { readonly classificationHeaders: boolean; readonly trustedClients: readonly string[] }): boolean | ((req: IncomingMessage) => boolean) {
  if (trust.classificationHeaders) return true;
  if (trust.trustedClients.length === 0) return false;
  const match = addressMatcher(trust.trustedClients);
  return (req) => match(req.socket.remoteAddress);
}
