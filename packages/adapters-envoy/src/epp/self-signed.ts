/*
 * A self-signed certificate for `--secure-serving` without `--tls-cert`, as llm-d's EPP makes one
 * at start when secure serving is on and no certificate directory is given. Gateways connect to
 * the EPP over TLS without verifying it, so the certificate only has to be well formed.
 *
 * node:crypto makes keys and signatures but not X.509 certificates, and the npm packages that do
 * bring a dependency tree (selfsigned 5 needs @peculiar/x509 and pkijs) for one certificate. So
 * the certificate is written here in DER: a TBSCertificate (RFC 5280 §4.1) signed with an ECDSA
 * P-256 key by node:crypto. No openssl at run time.
 */
import { X509Certificate, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/** A PEM certificate and its private key. */
export interface SelfSignedCertificate {
  readonly cert: string;
  readonly key: string;
  /** SHA-256 fingerprint of the certificate (colon-separated hex), for the startup log. */
  readonly fingerprint256: string;
}

/** Options of {@link generateSelfSignedCertificate}. */
export interface SelfSignedOptions {
  /** Subject and issuer common name, also the first DNS subjectAltName. */
  readonly commonName?: string;
  /** More DNS subjectAltNames. */
  readonly dnsNames?: readonly string[];
  /** Start of validity (defaults to now, minus an hour for clock skew). */
  readonly notBefore?: Date;
  /** Validity in days. llm-d's is ten years. */
  readonly days?: number;
}

// --- DER, the few types a certificate needs ---

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
const set = (...items: Buffer[]): Buffer => tlv(0x31, ...items);
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 + n, inner);
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bits = (b: Buffer): Buffer => tlv(0x03, Buffer.from([0]), b);

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const arc of rest) {
    const base128: number[] = [];
    for (let v = arc; ; v = Math.floor(v / 128)) {
      base128.unshift((v & 0x7f) | (base128.length === 0 ? 0 : 0x80));
      if (v < 128) break;
    }
    out.push(...base128);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A positive INTEGER from unsigned bytes (a leading zero when the top bit is set). */
function unsignedInteger(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const trimmed = bytes.subarray(i);
  return tlv(0x02, (trimmed[0] ?? 0) >= 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString(); // 2026-12-03T13:12:41.000Z
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '') + 'Z'; // 20261203131241Z
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii')) : tlv(0x18, Buffer.from(digits, 'ascii'));
}

const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const COMMON_NAME = '2.5.4.3';
const SUBJECT_ALT_NAME = '2.5.29.17';
const BASIC_CONSTRAINTS = '2.5.29.19';
const KEY_USAGE = '2.5.29.15';
const EXT_KEY_USAGE = '2.5.29.37';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const TRUE = tlv(0x01, Buffer.from([0xff]));

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), TRUE, octets(value)) : sequence(oid(id), octets(value));
}

const DAY_MS = 86_400_000;

/**
 * Generates a fresh ECDSA P-256 key and a self-signed X.509 v3 server certificate for it
 * (subjectAltName DNS names, `serverAuth`, not a CA), both PEM.
 */
export function generateSelfSignedCertificate(options: SelfSignedOptions = {}): SelfSignedCertificate {
  const commonName = options.commonName ?? 'switchyard-epp';
  const dnsNames = [commonName, ...(options.dnsNames ?? [])];
  const notBefore = options.notBefore ?? new Date(Date.now() - 3_600_000);
  const notAfter = new Date(notBefore.getTime() + (options.days ?? 3650) * DAY_MS);
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const name = sequence(set(sequence(oid(COMMON_NAME), utf8(commonName))));
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f; // positive, ≤ 20 octets
  const altNames = sequence(...dnsNames.map((d) => tlv(0x82, Buffer.from(d, 'ascii'))));
  const extensions = explicit(
    3,
    sequence(
      extension(BASIC_CONSTRAINTS, true, sequence()),
      extension(KEY_USAGE, true, bits(Buffer.from([0x80]))), // digitalSignature
      extension(EXT_KEY_USAGE, false, sequence(oid(SERVER_AUTH))),
      extension(SUBJECT_ALT_NAME, false, altNames),
    ),
  );
  const tbs = sequence(
    explicit(0, tlv(0x02, Buffer.from([2]))), // v3
    unsignedInteger(serial),
    ECDSA_WITH_SHA256,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey); // DER ECDSA-Sig-Value
  const der = sequence(tbs, ECDSA_WITH_SHA256, bits(signature));
  const cert = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
  // Parse it back once: a malformed certificate fails here, at start, not at the first handshake.
  const parsed = new X509Certificate(cert);
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), fingerprint256: parsed.fingerprint256 };
}
