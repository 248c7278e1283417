import { EventEmitter } from 'eventemitter3';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { parseAddress } from './address.js';
import {
  ENGINE_TYPE_LABEL,
  ENGINE_TYPE_LABEL_FALLBACK,
  type Endpoint,
  type EndpointMetrics,
  type EndpointSpec,
  type EngineType,
} from './types.js';

const ENGINES: readonly EngineType[] = ['vllm', 'sglang', 'trtllm-serve', 'triton-tensorrt-llm'];

/**
 * Events of an {@link EndpointPool}.
 * @public
 * @category Endpoints and the pool
 */
export interface EndpointPoolEvents {
  /** An endpoint joined. */
  added: [endpoint: Endpoint];
  /** An endpoint's labels or address changed. */
  updated: [endpoint: Endpoint];
  /** An endpoint left. */
  removed: [endpoint: Endpoint];
  /** New metrics arrived for an endpoint. */
  metrics: [endpoint: Endpoint];
}

type MutableEndpoint = { -readonly [K in keyof Endpoint]: Endpoint[K] };

/**
 * The pool's own record of an endpoint: the public view plus the split of its in-flight load into
 * this process's share and the other replicas' (shared state), so the sum is what everyone reads.
 */
interface PoolEndpoint extends MutableEndpoint {
  localRequests: number;
  localTokens: number;
  peerRequests: number;
  peerTokens: number;
}

/**
 * In-flight load of one endpoint.
 * @public
 * @category Endpoints and the pool
 */
export interface InFlightCounts {
  /** Requests dispatched and not yet completed. */
  readonly requests: number;
  /** Their prompt + expected output tokens. */
  readonly tokens: number;
}

function engineOf(labels: Readonly<Record<string, string>>): EngineType {
  const raw = labels[ENGINE_TYPE_LABEL] ?? labels[ENGINE_TYPE_LABEL_FALLBACK] ?? 'vllm';
  return (ENGINES as readonly string[]).includes(raw) ? (raw as EngineType) : 'vllm';
}

/**
 * The endpoints one picker schedules over, with their latest metrics and the in-flight load
 * Switchyard itself dispatched. Endpoint objects are live views: the scheduler reads them without
 * copying, so reads are cheap and always current.
 * @public
 * @category Endpoints and the pool
 */
export class EndpointPool extends EventEmitter<EndpointPoolEvents> {
  readonly #byId = new Map<string, PoolEndpoint>();
  #list: readonly Endpoint[] | undefined;

  /**
   * Adds an endpoint, or updates it when the id already exists (labels, address).
   * @throws SwitchyardError `CONFIG_INVALID` when the address is not `ip:port`
   */
  upsert(spec: EndpointSpec): Endpoint {
    const { ip, port } = parseAddress(spec.address);
    const id = spec.id ?? spec.address;
    const labels = { ...(spec.labels ?? {}) };
    const existing = this.#byId.get(id);
    if (existing !== undefined) {
      Object.assign(existing, { address: spec.address, ip, port, labels, engineType: engineOf(labels), metricsPort: spec.metricsPort ?? port, metricsHost: spec.metricsHost });
      this.#list = undefined;
      this.emit('updated', existing);
      return existing;
    }
    const endpoint: PoolEndpoint = {
      id,
      address: spec.address,
      ip,
      port,
      labels,
      engineType: engineOf(labels),
      metricsPort: spec.metricsPort ?? port,
      metricsHost: spec.metricsHost,
      metrics: undefined,
      inFlightRequests: 0,
      inFlightTokens: 0,
      localRequests: 0,
      localTokens: 0,
      peerRequests: 0,
      peerTokens: 0,
    };
    this.#byId.set(id, endpoint);
    this.#list = undefined;
    this.emit('added', endpoint);
    return endpoint;
  }

  /**
   * Adds a new endpoint.
   * @throws SwitchyardError `CONFIG_INVALID` on a bad address or a duplicate id
   */
  add(spec: EndpointSpec): Endpoint {
    const id = spec.id ?? spec.address;
    if (this.#byId.has(id)) throw new SwitchyardError('CONFIG_INVALID', `duplicate endpoint id "${id}"`);
    return this.upsert(spec);
  }

  /** Removes an endpoint; returns false when it was not there. */
  remove(id: string): boolean {
    const endpoint = this.#byId.get(id);
    if (endpoint === undefined) return false;
    this.#byId.delete(id);
    this.#list = undefined;
    this.emit('removed', endpoint);
    return true;
  }

  /** Replaces the pool's members with `specs` (adds, updates, removes as needed). */
  replaceAll(specs: readonly EndpointSpec[]): void {
    const keep = new Set(specs.map((s) => s.id ?? s.address));
    for (const id of [...this.#byId.keys()]) if (!keep.has(id)) this.remove(id);
    for (const spec of specs) this.upsert(spec);
  }

  /** Endpoint by id. */
  get(id: string): Endpoint | undefined {
    return this.#byId.get(id);
  }

  /** All endpoints, in insertion order. The array is cached until membership changes; do not mutate it. */
  list(): readonly Endpoint[] {
    this.#list ??= [...this.#byId.values()];
    return this.#list;
  }

  /** Number of endpoints. */
  get size(): number {
    return this.#byId.size;
  }

  /** Stores new metrics for an endpoint (the push API; the scraper uses it too). Unknown ids are ignored. */
  setMetrics(id: string, metrics: EndpointMetrics): void {
    const endpoint = this.#byId.get(id);
    if (endpoint === undefined) return;
    endpoint.metrics = metrics;
    this.emit('metrics', endpoint);
  }

  /**
   * Adds (or with negative values, subtracts) this process's in-flight load. Counts never go below
   * zero. Unknown ids are ignored (the endpoint may have left while the request ran).
   */
  addInFlight(id: string, requests: number, tokens: number): void {
    const endpoint = this.#byId.get(id);
    if (endpoint === undefined) return;
    endpoint.localRequests = Math.max(0, endpoint.localRequests + requests);
    endpoint.localTokens = Math.max(0, endpoint.localTokens + tokens);
    endpoint.inFlightRequests = endpoint.localRequests + endpoint.peerRequests;
    endpoint.inFlightTokens = endpoint.localTokens + endpoint.peerTokens;
  }

  /**
   * This process's share of an endpoint's in-flight load (what shared state publishes to the other
   * replicas); `Endpoint.inFlightRequests` adds the peers' share. Undefined for unknown ids.
   */
  localInFlight(id: string): InFlightCounts | undefined {
    const endpoint = this.#byId.get(id);
    return endpoint === undefined ? undefined : { requests: endpoint.localRequests, tokens: endpoint.localTokens };
  }

  /**
   * Sets the other replicas' in-flight load on an endpoint (summed over them; shared state calls
   * this after each sync). The endpoint's `inFlightRequests`/`inFlightTokens` become local + peers,
   * so every scorer, filter and saturation detector sees the fleet's load. Unknown ids are ignored.
   */
  setPeerInFlight(id: string, requests: number, tokens: number): void {
    const endpoint = this.#byId.get(id);
    if (endpoint === undefined) return;
    endpoint.peerRequests = Math.max(0, requests);
    endpoint.peerTokens = Math.max(0, tokens);
    endpoint.inFlightRequests = endpoint.localRequests + endpoint.peerRequests;
    endpoint.inFlightTokens = endpoint.localTokens + endpoint.peerTokens;
  }
}
