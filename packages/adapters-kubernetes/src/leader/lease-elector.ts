import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'eventemitter3';
import { systemClock, type Clock, type TimerHandle } from '@switchyard/core';
import type { KubeClient } from '../client/kube-client.js';
import { isKubeApiError } from '../client/kube-api-error.js';
import type { KubernetesMetrics } from '../metrics/kubernetes-metrics.js';
import type { LeaseObject } from '../resources/types.js';

/**
 * The Lease name llm-d's EPP elects on: `epp-<namespace>-<pool>.llm-d.ai`.
 * @public
 * @category Leader election
 */
export function eppLeaseName(namespace: string, pool: string): string {
  return `epp-${namespace}-${pool}.llm-d.ai`;
}

/**
 * Options of {@link LeaseElector}. Durations default to controller-runtime's, which llm-d uses.
 * @public
 * @category Leader election
 */
export interface LeaseElectorOptions {
  readonly client: KubeClient;
  readonly namespace: string;
  /** Lease name, e.g. {@link eppLeaseName}. */
  readonly name: string;
  /** This process's holder identity. @defaultValue `<hostname>_<uuid>` */
  readonly identity?: string | undefined;
  /** How long a lease is valid without renewal. @defaultValue 15000 */
  readonly leaseDurationMs?: number | undefined;
  /** A leader that cannot renew for this long steps down. @defaultValue 10000 */
  readonly renewDeadlineMs?: number | undefined;
  /** Interval of acquire and renew attempts. @defaultValue 2000 */
  readonly retryPeriodMs?: number | undefined;
  readonly clock?: Clock | undefined;
  readonly metrics?: KubernetesMetrics | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * Events of {@link LeaseElector}. @public
 * @category Leader election
 */
export interface LeaseElectorEvents {
  /** This process became the leader. */
  elected: [];
  /** This process stopped being the leader (lost the renew deadline, or released). */
  lost: [];
}

const microTime = (d: Date): string => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * Leader election on a `coordination.k8s.io/v1` Lease, the algorithm of client-go's
 * leaderelection: every retry period a candidate reads the Lease and takes it when it is free or
 * expired (expiry measured on the local clock from when this process last saw the record change,
 * so clock skew between nodes does not matter), with a PUT carrying the resourceVersion so two
 * candidates cannot both win (409 Conflict). The leader renews every retry period and steps down
 * when no renewal succeeded for the renew deadline. `release()` writes an empty holder with a
 * 1-second duration, so a standby takes over on its next attempt instead of after the lease expires.
 * @public
 * @category Leader election
 */
export class LeaseElector extends EventEmitter<LeaseElectorEvents> {
  /** The holder identity written to the Lease. */
  readonly identity: string;
  readonly #o: LeaseElectorOptions;
  readonly #clock: Clock;
  readonly #durationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryMs: number;
  #leader = false;
  #running = false;
  #timer: TimerHandle | undefined;
  #deadline: TimerHandle | undefined;
  #observed: { key: string; at: number } | undefined;
  #lastRenew = 0;
  #busy: Promise<void> | undefined;

  constructor(options: LeaseElectorOptions) {
    super();
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    this.#durationMs = options.leaseDurationMs ?? 15_000;
    this.#renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.#retryMs = options.retryPeriodMs ?? 2_000;
  }

  /** True while this process holds the Lease. */
  get isLeader(): boolean {
    return this.#leader;
  }

  /** Starts campaigning (the first attempt runs at once). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#o.log?.(`kubernetes: campaigning for Lease ${this.#o.namespace}/${this.#o.name} as ${this.identity}`);
    this.#tick();
  }

  /** Stops campaigning and, when leading, releases the Lease. */
  async release(): Promise<void> {
    this.#running = false;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#busy;
    if (!this.#leader) return;
    try {
      const lease = await this.#get();
      if (lease?.spec?.holderIdentity === this.identity) {
        const spec = { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime(new Date()) };
        await this.#o.client.request('PUT', this.#path(this.#o.name), { ...lease, spec });
      }
    } catch (err) {
      this.#o.log?.(`kubernetes: releasing Lease ${this.#o.name} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.#setLeader(false);
  }

  #tick(): void {
    if (!this.#running) return;
    this.#busy = this.#attempt().finally(() => {
      this.#busy = undefined;
      if (this.#running) this.#timer = this.#clock.setTimeout(() => { this.#tick(); }, this.#retryMs);
    });
  }

  async #attempt(): Promise<void> {
    try {
      if (await this.#tryAcquireOrRenew()) {
        this.#lastRenew = this.#clock.now();
        this.#armDeadline();
        this.#setLeader(true);
        return;
      }
      this.#setLeader(false);
    } catch (err) {
      this.#o.log?.(`kubernetes: Lease ${this.#o.name}: ${err instanceof Error ? err.message : String(err)}`);
      if (this.#leader && this.#clock.now() - this.#lastRenew >= this.#renewDeadlineMs) this.#setLeader(false);
    }
  }

  /** One client-go `tryAcquireOrRenew`: true when this process holds the Lease afterwards. */
  async #tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const mine = { holderIdentity: this.identity, leaseDurationSeconds: Math.ceil(this.#durationMs / 1000), renewTime: microTime(now) };
    const lease = await this.#get();
    if (lease === undefined) {
      const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.#o.name, namespace: this.#o.namespace }, spec: { ...mine, acquireTime: microTime(now), leaseTransitions: 0 } };
      return this.#write('POST', this.#path(''), body);
    }
    const spec = lease.spec ?? {};
    // client-go compares the whole record; every write changes the resourceVersion, and unlike
    // renewTime it cannot repeat when two renewals fall in the same millisecond of wall time.
    const key = `${lease.metadata?.resourceVersion ?? ''}|${spec.holderIdentity ?? ''}|${String(spec.renewTime ?? '')}|${String(spec.leaseDurationSeconds ?? '')}`;
    if (this.#observed?.key !== key) this.#observed = { key, at: this.#clock.now() };
    const holder = spec.holderIdentity ?? '';
    const validMs = (spec.leaseDurationSeconds ?? 0) * 1000;
    const heldByOther = holder !== '' && holder !== this.identity && this.#observed.at + validMs > this.#clock.now();
    if (heldByOther) return false;
    const transitions = (spec.leaseTransitions ?? 0) + (holder === this.identity ? 0 : 1);
    const acquireTime = holder === this.identity ? spec.acquireTime : microTime(now);
    return this.#write('PUT', this.#path(this.#o.name), { ...lease, spec: { ...spec, ...mine, acquireTime, leaseTransitions: transitions } });
  }

  async #write(method: 'POST' | 'PUT', path: string, body: unknown): Promise<boolean> {
    try {
      await this.#o.client.request(method, path, body);
      return true;
    } catch (err) {
      // Another candidate wrote first: it won this round.
      if (isKubeApiError(err, 409)) return false;
      throw err;
    }
  }

  /**
   * Steps down when no renewal succeeds within the renew deadline, even while a request hangs
   * (client-go bounds the renew loop by the deadline the same way): otherwise a leader stuck on
   * an unanswered request would keep serving after a standby took the expired Lease.
   */
  #armDeadline(): void {
    if (this.#deadline !== undefined) this.#clock.clearTimeout(this.#deadline);
    this.#deadline = this.#clock.setTimeout(() => {
      this.#deadline = undefined;
      this.#o.log?.(`kubernetes: Lease ${this.#o.name}: no renewal for ${String(this.#renewDeadlineMs)} ms`);
      this.#setLeader(false);
    }, this.#renewDeadlineMs);
  }

  async #get(): Promise<LeaseObject | undefined> {
    try {
      return await this.#o.client.request<LeaseObject>('GET', this.#path(this.#o.name));
    } catch (err) {
      if (isKubeApiError(err, 404)) return undefined;
      throw err;
    }
  }

  #path(name: string): string {
    const base = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.#o.namespace)}/leases`;
    return name === '' ? base : `${base}/${encodeURIComponent(name)}`;
  }

  #setLeader(leader: boolean): void {
    if (!leader && this.#deadline !== undefined) {
      this.#clock.clearTimeout(this.#deadline);
      this.#deadline = undefined;
    }
    if (leader === this.#leader) return;
    this.#leader = leader;
    this.#o.metrics?.leader.set({ lease: this.#o.name }, leader ? 1 : 0);
    this.#o.log?.(`kubernetes: ${leader ? 'acquired' : 'lost'} Lease ${this.#o.namespace}/${this.#o.name} as ${this.identity}`);
    this.emit(leader ? 'elected' : 'lost');
  }
}
