import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateSelfSignedCertificate } from './self-signed.js';

describe('generateSelfSignedCertificate', () => {
  it('makes a v3 server certificate that node parses, signed by its own key, for the names asked', () => {
    const notBefore = new Date('2026-01-02T03:04:05Z');
    const { cert, key, fingerprint256 } = generateSelfSignedCertificate({ commonName: 'epp.local', dnsNames: ['localhost'], notBefore, days: 30 });
    const x = new X509Certificate(cert);
    expect(x.subject).toBe('CN=epp.local');
    expect(x.issuer).toBe('CN=epp.local');
    expect(x.subjectAltName).toBe('DNS:epp.local, DNS:localhost');
    expect(x.ca).toBe(false);
    expect(x.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(new Date(x.validFrom).toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(new Date(x.validTo).toISOString()).toBe('2026-02-01T03:04:05.000Z');
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.checkPrivateKey(createPrivateKey(key))).toBe(true);
    expect(x.checkHost('localhost')).toBe('localhost');
    expect(x.fingerprint256).toBe(fingerprint256);
  });

  it('writes validity past 2049 as GeneralizedTime, and a fresh key and serial each time', () => {
    const a = generateSelfSignedCertificate({ notBefore: new Date('2045-06-01T00:00:00Z'), days: 3650 });
    const b = generateSelfSignedCertificate();
    const xa = new X509Certificate(a.cert);
    expect(new Date(xa.validTo).getUTCFullYear()).toBe(2055);
    expect(xa.verify(xa.publicKey)).toBe(true);
    const xb = new X509Certificate(b.cert);
    expect(xb.subject).toBe('CN=switchyard-epp');
    expect(xb.serialNumber).not.toBe(xa.serialNumber);
    expect(b.key).not.toBe(a.key);
    // Valid now (backdated an hour for clock skew), for ten years by default.
    expect(new Date(xb.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(xb.validTo).getTime() - new Date(xb.validFrom).getTime()).toBe(3650 * 86_400_000);
  });
});
