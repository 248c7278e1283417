import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addressMatcher } from './trust.js';

describe('addressMatcher', () => {
  it('matches exact addresses, mapped IPv4 and CIDRs', () => {
    const m = addressMatcher(['127.0.0.1', '10.0.0.0/8', '::1', '192.168.1.0/24']);
    expect(m('127.0.0.1')).toBe(true);
    expect(m('::ffff:127.0.0.1')).toBe(true);
    expect(m('::1')).toBe(true);
    expect(m('10.200.3.4')).toBe(true);
    expect(m('11.0.0.1')).toBe(false);
    expect(m('192.168.1.77')).toBe(true);
    expect(m('192.168.2.1')).toBe(false);
    expect(m(undefined)).toBe(false);
  });

  it('agrees with a reference prefix comparison for random /n ranges', () => {
    const ip = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
    fc.assert(
      fc.property(ip, ip, fc.integer({ min: 0, max: 32 }), (a, b, bits) => {
        const m = addressMatcher([`${a.join('.')}/${bits}`]);
        const bin = (x: number[]): string => x.map((o) => o.toString(2).padStart(8, '0')).join('');
        expect(m(b.join('.'))).toBe(bin(a).slice(0, bits) === bin(b).slice(0, bits));
      }),
    );
  });

  it('rejects malformed CIDRs with the entry index', () => {
    expect(() => addressMatcher(['10.0.0.0/40'])).toThrow(/trustedClients\[0\]/);
    expect(() => addressMatcher(['1.2.3.4', 'nope/8'])).toThrow(/trustedClients\[1\]/);
  });

  it('matches IPv6 CIDRs, and IPv4 CIDRs against IPv4-mapped IPv6 addresses', () => {
    const m = addressMatcher(['fd00:1234::/32', '10.0.0.0/8']);
    expect(m('fd00:1234:0:0:0:0:0:1')).toBe(true);
    expect(m('FD00:1234::ffff')).toBe(true);
    expect(m('fd00:1235::1')).toBe(false);
    expect(m('::ffff:10.1.2.3')).toBe(true);
    expect(m('::ffff:11.1.2.3')).toBe(false);
    expect(m('not an address')).toBe(false);
  });

  it('rejects entries that are not an IP or a CIDR, naming them', () => {
    expect(() => addressMatcher(['not-an-ip'])).toThrow(/trustedClients\[0\]: "not-an-ip" is not an IP address or CIDR/);
    expect(() => addressMatcher(['::1', 'fd00::/200'])).toThrow(/trustedClients\[1\]/);
    expect(() => addressMatcher(['1.2.3'])).toThrow(/trustedClients\[0\]/);
  });
});
