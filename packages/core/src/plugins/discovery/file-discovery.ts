import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import type { Clock, TimerHandle } from '../../clock/clock.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { definePlugin } from '../../registry/types.js';
import type { DiscoveryTarget, EndpointDiscovery } from './endpoint-discovery.js';
import { endpointSpecOf, parseEndpointsFile, type DiscoveredEndpoint, type EndpointsFileHosts, type FileEndpoint } from './endpoints-file.js';

/**
 * Type of llm-d's endpoints-from-a-file discovery. @public
 * @category Built-in plugins
 */
export const FILE_DISCOVERY = 'file-discovery';

/**
 * How often a watched endpoints file is checked for changes. llm-d is told by fsnotify; a poll
 * of the file's size, mtime and inode sees the same writes, creates, removals and renames
 * (editors' atomic saves) on every file system, network mounts included.
 * @public
 * @category Built-in plugins
 */
export const FILE_WATCH_POLL_MS = 500;

/**
 * Parameters of `file-discovery`, with llm-d's names and defaults (`path` is required). @public
 * @category Built-in plugins
 */
export const fileDiscoveryParameters = z.strictObject({
  path: z.string().min(1),
  watchFile: z.boolean().default(false),
});

/**
 * How the discovery reads its file: a seam for tests (node:fs by default).
 * @public
 * @category Built-in plugins
 */
export interface EndpointsFileReader {
  /** A value that changes whenever the file does (undefined while the file is missing). */
  version(path: string): string | undefined;
  /** The file's text. */
  read(path: string): string;
}

const nodeFileReader: EndpointsFileReader = {
  version: (path) => {
    const s = statSync(path, { throwIfNoEntry: false });
    return s === undefined ? undefined : `${s.ino}:${s.size}:${s.mtimeMs}`;
  },
  read: (path) => readFileSync(path, 'utf8'),
};

/**
 * What a file discovery needs besides its parameters. @public
 * @category Built-in plugins
 */
export interface FileDiscoveryDeps {
  /** Clock of the watch polls. */
  readonly clock: Clock;
  /** File access (default node:fs). */
  readonly reader?: EndpointsFileReader | undefined;
  /** Hosts the file may name (default `ipv4`, llm-d's `file-discovery`). */
  readonly hosts?: EndpointsFileHosts | undefined;
  /** Pool entry of a file endpoint (default: id `namespace/name`, `address:port`, labels). */
  readonly specOf?: ((e: FileEndpoint) => DiscoveredEndpoint) | undefined;
}

/**
 * A file discovery instance (`file-discovery`, `multicluster-file-discovery`).
 * @public
 * @category Built-in plugins
 */
export interface FileDiscovery extends EndpointDiscovery {
  /** Re-reads the file now and applies it (what a watch poll does when the file changed). */
  reload(): void;
  /** The error of the latest failed read, undefined after a successful one. */
  readonly lastError: SwitchyardError | undefined;
  /** Stops the watch (the picker's `close()` calls it). */
  close(): void;
}

type Params = z.output<typeof fileDiscoveryParameters>;

const sameSpec = (a: DiscoveredEndpoint, b: DiscoveredEndpoint): boolean =>
  a.address === b.address && a.metricsPort === b.metricsPort && a.metricsHost === b.metricsHost && JSON.stringify(a.labels) === JSON.stringify(b.labels);

class WatchedEndpointsFile implements FileDiscovery {
  ready = false;
  lastError: SwitchyardError | undefined;
  readonly #reader: EndpointsFileReader;
  readonly #hosts: EndpointsFileHosts;
  readonly #specOf: (e: FileEndpoint) => DiscoveredEndpoint;
  readonly #applied = new Map<string, DiscoveredEndpoint>();
  #target: DiscoveryTarget | undefined;
  #version: string | undefined;
  #timer: TimerHandle | undefined;
  #closed = false;

  constructor(readonly type: string, readonly name: string, private readonly params: Params, private readonly deps: FileDiscoveryDeps) {
    this.#reader = deps.reader ?? nodeFileReader;
    this.#hosts = deps.hosts ?? 'ipv4';
    this.#specOf = deps.specOf ?? endpointSpecOf;
  }

  start(target: DiscoveryTarget): void {
    this.#target = target;
    this.#version = this.#reader.version(this.params.path);
    this.reload();
    // The first read must work: an EPP without its endpoints does not start (llm-d neither).
    if (this.lastError !== undefined) throw this.lastError;
    this.ready = true;
    if (this.params.watchFile) this.#schedule();
  }

  reload(): void {
    const target = this.#target;
    if (target === undefined || this.#closed) return;
    let specs: DiscoveredEndpoint[];
    try {
      specs = parseEndpointsFile(this.#readText(), this.#hosts).map((e) => this.#specOf(e));
    } catch (error) {
      // A bad or missing file keeps the endpoints of the last good one.
      this.lastError = error instanceof SwitchyardError ? error : new SwitchyardError('CONFIG_INVALID', String(error), { field: 'path' });
      target.onError?.(this.lastError);
      return;
    }
    this.lastError = undefined;
    const keep = new Set(specs.map((s) => s.id));
    for (const id of [...this.#applied.keys()]) {
      if (keep.has(id)) continue;
      this.#applied.delete(id);
      target.remove(id);
    }
    for (const spec of specs) {
      const before = this.#applied.get(spec.id);
      if (before !== undefined && sameSpec(before, spec)) continue;
      this.#applied.set(spec.id, spec);
      target.upsert(spec);
    }
  }

  #readText(): string {
    try {
      return this.#reader.read(this.params.path);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new SwitchyardError('CONFIG_INVALID', `${this.type} "${this.name}": cannot read path "${this.params.path}": ${why}`, { field: 'path', cause: error });
    }
  }

  #schedule(): void {
    this.#timer = this.deps.clock.setTimeout(() => {
      this.#timer = undefined;
      if (this.#closed) return;
      const version = this.#reader.version(this.params.path);
      if (version !== this.#version) {
        this.#version = version;
        this.reload();
      }
      this.#schedule();
    }, FILE_WATCH_POLL_MS);
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.deps.clock.clearTimeout(this.#timer);
  }
}

/**
 * Creates a file discovery directly (the plugin definitions call it; tests pass their reader).
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad parameter
 * @public
 * @category Built-in plugins
 */
export function createFileDiscovery(name: string, params: z.input<typeof fileDiscoveryParameters>, deps: FileDiscoveryDeps, type: string = FILE_DISCOVERY): FileDiscovery {
  return new WatchedEndpointsFile(type, name, fileDiscoveryParameters.parse(params), deps);
}

/**
 * `file-discovery` (llm-d): endpoints from a YAML or JSON file (`endpoints: [{name, namespace,
 * address, port, labels}]`, IPv4 addresses) instead of Kubernetes. Named in
 * `dataLayer.discovery.pluginRef`, it fills the pool when the EPP or gateway starts; with
 * `watchFile` it re-reads the file when it changes, upserting endpoints by `namespace/name` and
 * removing those no longer listed. A file that fails to read or parse keeps the previous endpoints.
 * @public
 * @category Built-in plugins
 */
export const fileDiscoveryPlugin = definePlugin({
  type: FILE_DISCOVERY,
  description: 'Endpoint discovery: endpoints from a YAML/JSON file, optionally re-read when it changes.',
  parameters: fileDiscoveryParameters,
  create: (p, ctx): FileDiscovery => new WatchedEndpointsFile(FILE_DISCOVERY, ctx.name, p, { clock: ctx.clock }),
});
