import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import { SwitchyardError } from '@switchyard/core';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Parses an address the way the matcher compares it: IPv4-mapped IPv6 (`::ffff:10.0.0.1`, what
 * node reports on dual-stack sockets) becomes IPv4, so one IPv4 entry covers both forms.
 */
function parseAddress(text: string): Address | undefined {
  if (!ipaddr.isValid(text)) return undefined;
  return ipaddr.process(text);
}

/** Parses `entry` as an address (a single-address range) or a CIDR; undefined when it is neither. */
function parseRange(entry: string): [Address, number] | undefined {
  if (!entry.includes('/')) {
    // isValid accepts shorthand IPv4 (`10.1`, `1.2.3`); only the four-part form is an entry.
    if (!ipaddr.IPv6.isValid(entry) && !ipaddr.IPv4.isValidFourPartDecimal(entry)) return undefined;
    const a = parseAddress(entry);
    return a === undefined ? undefined : [a, a.kind() === 'ipv4' ? 32 : 128];
  }
  try {
    const [a, bits] = ipaddr.parseCIDR(entry);
    // A mapped-IPv6 range (`::ffff:10.0.0.0/104`) is written as the IPv4 range it covers.
    if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(a as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return [a, bits];
  } catch {
    return undefined;
  }
}

/**
 * Builds a predicate telling whether a client address is in `entries`: IPv4 or IPv6 addresses
 * and CIDRs (`10.0.0.0/8`, `fd00::/8`), parsed by `ipaddr.js`. IPv4-mapped IPv6 client addresses
 * match IPv4 entries.
 * @throws SwitchyardError `CONFIG_INVALID` naming the first entry that is not an address or CIDR
 * @public
 */
export function addressMatcher(entries: readonly string[]): (ip: string | undefined) => boolean {
  const ranges: [Address, number][] = [];
  for (const [i, raw] of entries.entries()) {
    const range = parseRange(raw.trim());
    if (range === undefined) throw new SwitchyardError('CONFIG_INVALID', `gateway.trust.trustedClients[${i}]: "${raw}" is not an IP address or CIDR (e.g. 10.0.0.0/8, fd00::/8)`, { field: `gateway.trust.trustedClients[${i}]` });
    ranges.push(range);
  }
  return (ip) => {
    if (ip === undefined) return false;
    const a = parseAddress(ip);
    if (a === undefined) return false;
    for (const [base, bits] of ranges) if (base.kind() === a.kind() && a.match(base, bits)) return true;
    return false;
  };
}

/**
 * The gateway's trust predicate from the config: everyone, nobody, or listed client addresses;
 * undefined when the section says nothing, so the handler's default applies
 * (`GATEWAY_DEFAULTS.trustClassificationHeaders`).
 * @throws SwitchyardError `CONFIG_INVALID` for a malformed `trustedClients` entry
 * @public
 */
export function trustPredicate(trust: { readonly classificationHeaders?: boolean | undefined; readonly trustedClients: readonly string[] }): boolean | ((req: IncomingMessage) => boolean) | undefined {
  // Validated even when every client is trusted, so a typo is never silently ignored.
  const match = trust.trustedClients.length === 0 ? undefined : addressMatcher(trust.trustedClients);
  if (trust.classificationHeaders === true) return true;
  if (match === undefined) return trust.classificationHeaders;
  return (req) => match(req.socket.remoteAddress);
}
