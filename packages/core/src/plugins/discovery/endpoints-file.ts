import { parseAllDocuments } from 'yaml';
import { joinHostPort } from '../../endpoints/address.js';
import type { EndpointSpec } from '../../endpoints/types.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';

/**
 * llm-d reads at most 1 MiB of an endpoints file. @public
 * @category Built-in plugins
 */
export const MAX_ENDPOINTS_FILE_BYTES = 1 << 20;

/**
 * One entry of an endpoints file, as llm-d's file discovery documents it:
 * `endpoints: [{name, namespace, address, port, labels}]`.
 * @public
 * @category Built-in plugins
 */
export interface FileEndpoint {
  /** Endpoint name (required). */
  readonly name: string;
  /** Namespace (`default` when omitted); the endpoint id is `namespace/name`. */
  readonly namespace: string;
  /** IPv4 literal (`file-discovery`), or any host (`multicluster-file-discovery`). */
  readonly address: string;
  /** Serving port, 1..65535. */
  readonly port: number;
  /** Endpoint labels. */
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * What hosts an endpoints file may name: `ipv4` (llm-d's `file-discovery`) or `any`
 * (`multicluster-file-discovery`: a hostname, IPv4 or IPv6 address).
 * @public
 * @category Built-in plugins
 */
export type EndpointsFileHosts = 'ipv4' | 'any';

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens.
const HOSTNAME = /^(?=.{1,253}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const IPV6 = /^[0-9a-fA-F:.]+$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function hostProblem(address: unknown, hosts: EndpointsFileHosts): string | undefined {
  if (typeof address !== 'string' || address === '') return 'required (an IPv4 address)';
  if (IPV4.test(address)) return undefined;
  if (hosts === 'ipv4') return `"${address}" is not an IPv4 address`;
  if (HOSTNAME.test(address) || (address.includes(':') && IPV6.test(address))) return undefined;
  return `"${address}" is not a host name or IP address`;
}

function portOf(port: unknown): number | undefined {
  // llm-d's port is a string; an unquoted YAML number means the same port.
  const text = typeof port === 'number' ? String(port) : port;
  if (typeof text !== 'string' || !/^\d{1,5}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= 65535 ? n : undefined;
}

function labelsOf(labels: unknown, at: string, problems: string[]): Record<string, string> {
  if (labels === undefined || labels === null) return {};
  if (!isRecord(labels)) {
    problems.push(`${at}.labels: expected a map of strings`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) {
    if (typeof v === 'string') out[k] = v;
    else problems.push(`${at}.labels.${k}: expected a string`);
  }
  return out;
}

function entryOf(raw: unknown, i: number, hosts: EndpointsFileHosts, problems: string[]): FileEndpoint | undefined {
  const at = `endpoints[${i}]`;
  if (!isRecord(raw)) {
    problems.push(`${at}: expected a map`);
    return undefined;
  }
  const before = problems.length;
  const { name, namespace = 'default', address, port } = raw;
  if (typeof name !== 'string' || name === '') problems.push(`${at}.name: required`);
  if (typeof namespace !== 'string' || namespace === '') problems.push(`${at}.namespace: expected a non-empty string`);
  const host = hostProblem(address, hosts);
  if (host !== undefined) problems.push(`${at}.address: ${host}`);
  const p = portOf(port);
  if (p === undefined) problems.push(`${at}.port: expected a port 1..65535, got ${port === undefined ? 'nothing' : JSON.stringify(port)}`);
  const labels = labelsOf(raw['labels'], at, problems);
  if (problems.length > before) return undefined;
  return { name: name as string, namespace: namespace as string, address: address as string, port: p as number, labels };
}

function documentOf(text: string): unknown {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1) throw invalid('endpoints', 'expected one YAML or JSON document');
  const [doc] = docs as [(typeof docs)[number]];
  const error = doc.errors[0];
  if (error !== undefined) throw invalid('endpoints', `invalid YAML/JSON: ${error.message.split('\n')[0] ?? ''}`);
  try {
    return doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (e) {
    // Unresolved or exploding aliases surface only when the document is converted.
    throw invalid('endpoints', `invalid YAML: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function invalid(field: string, message: string): SwitchyardError {
  return new SwitchyardError('CONFIG_INVALID', `endpoints file: ${field}: ${message}`, { field });
}

/**
 * Parses an endpoints file (YAML or JSON) in llm-d's format. Every invalid entry is reported in
 * one error (llm-d joins them); an endpoint listed twice (same `namespace/name`) is invalid.
 * @throws SwitchyardError `CONFIG_INVALID` whose `field` names the first bad entry field
 *   (`endpoints[2].address`) and whose message lists all of them
 * @public
 * @category Built-in plugins
 */
export function parseEndpointsFile(text: string, hosts: EndpointsFileHosts = 'ipv4'): readonly FileEndpoint[] {
  if (Buffer.byteLength(text, 'utf8') > MAX_ENDPOINTS_FILE_BYTES) throw invalid('endpoints', `file larger than ${MAX_ENDPOINTS_FILE_BYTES} bytes`);
  const doc = documentOf(text);
  if (!isRecord(doc)) throw invalid('endpoints', 'expected a map with an endpoints list');
  const list = doc['endpoints'] ?? [];
  if (!Array.isArray(list)) throw invalid('endpoints', 'expected a list');
  const problems: string[] = [];
  const seen = new Set<string>();
  const out: FileEndpoint[] = [];
  list.forEach((raw, i) => {
    const e = entryOf(raw, i, hosts, problems);
    if (e === undefined) return;
    const id = `${e.namespace}/${e.name}`;
    if (seen.has(id)) problems.push(`endpoints[${i}].name: duplicate endpoint "${id}"`);
    else seen.add(id);
    out.push(e);
  });
  const [first] = problems;
  if (first !== undefined) {
    const field = first.slice(0, first.indexOf(':'));
    throw new SwitchyardError('CONFIG_INVALID', `endpoints file: ${problems.join('; ')}`, { field });
  }
  return out;
}

/**
 * A pool entry found by discovery: always with its id. @public
 * @category Built-in plugins
 */
export type DiscoveredEndpoint = EndpointSpec & { readonly id: string };

/**
 * The pool entry of a file endpoint: id `namespace/name` (llm-d's endpoint key), address
 * `host:port` (IPv6 bracketed), its labels.
 * @public
 * @category Built-in plugins
 */
export function endpointSpecOf(e: FileEndpoint): DiscoveredEndpoint {
  return { id: `${e.namespace}/${e.name}`, address: joinHostPort(e.address, e.port), labels: e.labels };
}
