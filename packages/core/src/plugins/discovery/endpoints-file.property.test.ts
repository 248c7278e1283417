import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SwitchyardError, endpointSpecOf, parseEndpointsFile } from '@switchyard/core';

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
const dnsLabel = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
const entry = fc.record({
  name: dnsLabel,
  namespace: fc.option(dnsLabel, { nil: undefined }),
  address: ipv4,
  port: fc.integer({ min: 1, max: 65535 }),
  quotedPort: fc.boolean(),
  labels: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9./-]{0,12}$/), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
});
type Entry = typeof entry extends fc.Arbitrary<infer T> ? T : never;

const unique = (entries: Entry[]): Entry[] => {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const id = `${e.namespace ?? 'default'}/${e.name}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
};

const asFile = (entries: Entry[]): Record<string, unknown> => ({
  endpoints: entries.map((e) => ({
    name: e.name,
    ...(e.namespace === undefined ? {} : { namespace: e.namespace }),
    address: e.address,
    port: e.quotedPort ? String(e.port) : e.port,
    labels: e.labels,
  })),
});

describe('parseEndpointsFile (property)', () => {
  it('reads back every valid entry, from YAML and from JSON alike', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }).map(unique), fc.boolean(), (entries, json) => {
        const doc = asFile(entries);
        const parsed = parseEndpointsFile(json ? JSON.stringify(doc) : stringify(doc));
        expect(parsed).toEqual(entries.map((e) => ({ name: e.name, namespace: e.namespace ?? 'default', address: e.address, port: e.port, labels: e.labels })));
        expect(parsed.map(endpointSpecOf).map((s) => s.id)).toEqual(entries.map((e) => `${e.namespace ?? 'default'}/${e.name}`));
      }),
    );
  });

  it('never throws anything but a CONFIG_INVALID naming a field, whatever the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json().map((j) => `endpoints: ${j}`), fc.array(fc.anything(), { maxLength: 3 }).map((a) => JSON.stringify({ endpoints: a }))), (text) => {
        try {
          parseEndpointsFile(text);
        } catch (error) {
          expect(error).toBeInstanceOf(SwitchyardError);
          expect((error as SwitchyardError).code).toBe('CONFIG_INVALID');
          expect((error as SwitchyardError).field).toMatch(/^endpoints/);
        }
      }),
    );
  });

  it('reports YAML aliases that do not resolve as CONFIG_INVALID (found by the property above)', () => {
    expect(() => parseEndpointsFile('*a')).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', field: 'endpoints' }) as Error);
    expect(() => parseEndpointsFile('endpoints: [*x]')).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', field: 'endpoints' }) as Error);
  });

  it('names the entry and field of a bad port, address or name', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 5 }).map(unique), fc.nat(), fc.constantFrom('port', 'address', 'name') , (entries, at, field) => {
        const i = at % entries.length;
        const doc = asFile(entries) as { endpoints: Record<string, unknown>[] };
        const bad = { port: '0', address: 'not-an-ip', name: '' }[field];
        (doc.endpoints[i] as Record<string, unknown>)[field] = bad;
        expect(() => parseEndpointsFile(JSON.stringify(doc))).toThrow(expect.objectContaining({ field: `endpoints[${i}].${field}` }) as Error);
      }),
    );
  });
});
