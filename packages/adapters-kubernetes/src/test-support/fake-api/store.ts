import { randomUUID } from 'node:crypto';
import { groupVersion, typeKey, type ResourceType } from './resources.js';

/** A stored object (plain JSON). */
export type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

/** One change, as watches replay it. */
export interface StoreEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly resource: string;
  readonly rv: number;
  readonly object: Obj;
  /** The previous version (MODIFIED), so label-selector watches can turn it into ADDED/DELETED. */
  readonly old?: Obj;
}

/** An API error, answered as a `Status`. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

const HISTORY_LIMIT = 10_000;

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) Reflect.deleteProperty(out, k);
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * The fake API server's etcd: objects per resource type, one global resourceVersion counter and a
 * bounded event history watches replay from. `compact()` forgets the history, so older
 * resourceVersions get 410 Expired, as after an etcd compaction.
 */
export class FakeStore {
  #rv = 100;
  #compactedAt = 0;
  readonly #objects = new Map<string, Map<string, Obj>>();
  readonly #history: StoreEvent[] = [];
  readonly #listeners = new Set<(e: StoreEvent) => void>();
  readonly types: ReadonlyMap<string, ResourceType>;

  constructor(types: readonly ResourceType[]) {
    this.types = new Map(types.map((t) => [typeKey(t.group, t.version, t.plural), t]));
    for (const key of this.types.keys()) this.#objects.set(key, new Map());
  }

  /** The current resourceVersion. */
  get resourceVersion(): number {
    return this.#rv;
  }

  /** The oldest resourceVersion a watch may still start from. */
  get compactedAt(): number {
    return this.#compactedAt;
  }

  /** Forgets the event history: watches from an older resourceVersion get 410. */
  compact(): void {
    this.#history.length = 0;
    this.#compactedAt = this.#rv;
  }

  /** Events after `rv`, oldest first. */
  since(rv: number): StoreEvent[] {
    return this.#history.filter((e) => e.rv > rv);
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  subscribe(fn: (e: StoreEvent) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  list(resource: string, namespace: string | undefined): Obj[] {
    const all = [...this.#table(resource).values()];
    return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace);
  }

  get(resource: string, namespace: string, name: string): Obj {
    const o = this.#table(resource).get(`${namespace}/${name}`);
    if (o === undefined) throw new ApiError(404, 'NotFound', `${this.#type(resource).plural} "${name}" not found`);
    return o;
  }

  create(resource: string, namespace: string, body: Obj): Obj {
    const t = this.#type(resource);
    const name = typeof body.metadata.name === 'string' ? body.metadata.name : '';
    if (name === '') throw new ApiError(422, 'Invalid', `${t.kind}: metadata.name: Required value`);
    const key = `${namespace}/${name}`;
    if (this.#table(resource).has(key)) throw new ApiError(409, 'AlreadyExists', `${t.plural} "${name}" already exists`);
    const rv = ++this.#rv;
    const metadata = { ...body.metadata, name, namespace, uid: randomUUID(), resourceVersion: String(rv), creationTimestamp: new Date().toISOString(), generation: 1 };
    const obj: Obj = { ...body, apiVersion: groupVersion(t), kind: t.kind, metadata };
    this.#table(resource).set(key, obj);
    this.#emit({ type: 'ADDED', resource, rv, object: obj });
    return obj;
  }

  /** Replaces an object; a resourceVersion in the body that is not the current one is a 409 Conflict. */
  replace(resource: string, namespace: string, name: string, body: Obj): Obj {
    const old = this.get(resource, namespace, name);
    const sent = body.metadata.resourceVersion;
    if (sent !== undefined && sent !== '' && sent !== old.metadata.resourceVersion) {
      throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${this.#type(resource).plural} "${name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    return this.#update(resource, old, body);
  }

  /** Applies a JSON merge patch. */
  patch(resource: string, namespace: string, name: string, patch: unknown): Obj {
    const old = this.get(resource, namespace, name);
    return this.#update(resource, old, mergePatch(old, patch) as Obj);
  }

  delete(resource: string, namespace: string, name: string): Obj {
    const old = this.get(resource, namespace, name);
    this.#table(resource).delete(`${namespace}/${name}`);
    const rv = ++this.#rv;
    const obj: Obj = { ...old, metadata: { ...old.metadata, resourceVersion: String(rv) } };
    this.#emit({ type: 'DELETED', resource, rv, object: obj });
    return obj;
  }

  #update(resource: string, old: Obj, body: Obj): Obj {
    const rv = ++this.#rv;
    const t = this.#type(resource);
    // Identity fields are the server's, whatever the client sent.
    const metadata = { ...body.metadata, name: old.metadata.name, namespace: old.metadata.namespace, uid: old.metadata.uid, creationTimestamp: old.metadata.creationTimestamp, resourceVersion: String(rv) };
    const obj: Obj = { ...body, apiVersion: groupVersion(t), kind: t.kind, metadata };
    this.#table(resource).set(`${String(old.metadata.namespace)}/${String(old.metadata.name)}`, obj);
    this.#emit({ type: 'MODIFIED', resource, rv, object: obj, old });
    return obj;
  }

  #emit(e: StoreEvent): void {
    this.#history.push(e);
    if (this.#history.length > HISTORY_LIMIT) {
      const dropped = this.#history.splice(0, this.#history.length - HISTORY_LIMIT);
      this.#compactedAt = dropped[dropped.length - 1]?.rv ?? this.#compactedAt;
    }
    for (const fn of this.#listeners) fn(e);
  }

  #type(resource: string): ResourceType {
    const t = this.types.get(resource);
    if (t === undefined) throw new ApiError(404, 'NotFound', `the server could not find the requested resource`);
    return t;
  }

  #table(resource: string): Map<string, Obj> {
    this.#type(resource);
    return this.#objects.get(resource) ?? new Map<string, Obj>();
  }
}
