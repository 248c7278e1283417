import type { Clock, EndpointPool, RequestScheduler, SharedState } from '@switchyard/core';
import type { EngineModel } from '../engine/engine.js';
import type { EngineProfile } from '../engine/types.js';
import type { EngineConfigInput } from '../engine/config.js';
import type { SimKvEventBatch } from '../engine/kv-events.js';
import type { GatewayCpuModel } from './gateway-cost.js';
import type { SignalTiming } from './signal-timing.js';

/**
 * What a policy may see of the simulated fleet (the oracle reads true engine state through it).
 * @public
 * @category Fleet
 */
export interface FleetView {
  /** Engine behind an endpoint id (undefined once it left or failed). */
  engine(endpointId: string): EngineModel | undefined;
}

/**
 * What a policy factory receives.
 * @public
 * @category Fleet
 */
export interface PolicyContext {
  /** The pool the policy schedules over (metrics arrive by scrape, in-flight counts by decisions). */
  readonly pool: EndpointPool;
  /** The virtual clock. */
  readonly clock: Clock;
  /** Seeded random source for tie-breaks. */
  readonly random: () => number;
  /** Seed of the run. */
  readonly seed: number;
  /** True engine state (for the oracle only; a real gateway has no such view). */
  readonly fleet: FleetView;
  /** Base model name of the engines. */
  readonly modelName: string;
  /** Which gateway replica this policy instance serves (0-based). */
  readonly replica: number;
  /** Number of gateway replicas in the run. */
  readonly replicas: number;
  /** State shared with the other replicas (`sharedStateSyncMs`), its pool already attached. */
  readonly sharedState?: SharedState | undefined;
}

/**
 * A routing policy under test: any `RequestScheduler` (normally a real `EndpointPicker`),
 * plus an optional sink for the engines' KV events (delivered after the configured delay).
 * @public
 * @category Fleet
 */
export interface SimPolicy {
  /** Name shown in reports. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The scheduler. */
  readonly scheduler: RequestScheduler;
  /** Receives each endpoint's KV event batches (the precise index's push API). */
  readonly onKvEvents?: ((endpointId: string, batch: SimKvEventBatch) => void) | undefined;
  /** Releases resources at the end of the run. */
  readonly close?: (() => void | Promise<void>) | undefined;
}

/**
 * Builds a policy for one gateway replica of a run. The fleet calls it once per replica, so each
 * replica has its own picker, prefix index, in-flight counts and queues; a factory that wants
 * replicas to share state (e.g. through a shared-state store) closes over it and hands every
 * replica the same store. This is the seam for cross-replica state.
 * @public
 * @category Fleet
 */
export type PolicyFactory = (ctx: PolicyContext) => SimPolicy | Promise<SimPolicy>;

/**
 * A change of fleet membership during a run: `join` adds pod `pod` (a new index adds a pod),
 * `leave` drains it (no new requests; running ones finish), `fail` kills it (its requests fail),
 * `restart` replaces its engine with a fresh one behind the same endpoint (running requests fail,
 * the cache is empty, and the gateways are not told).
 * @public
 * @category Fleet
 */
export interface MembershipChange {
  /** Virtual time, ms. */
  readonly atMs: number;
  /** What happens. */
  readonly action: 'join' | 'leave' | 'fail' | 'restart';
  /** Pod index. */
  readonly pod: number;
}

/**
 * Options of {@link runVirtualFleet}.
 * @public
 * @category Fleet
 */
export interface VirtualFleetOptions {
  /** Pods at the start (default 8). */
  readonly pods?: number;
  /** Engine profile (default `8b-h100`). */
  readonly profile?: string | EngineProfile;
  /** Engine overrides for every pod (pod i gets seed + i). */
  readonly overrides?: EngineConfigInput['overrides'];
  /** Seed of the run: engines' jitter and the policy's random source (default 1). */
  readonly seed?: number;
  /** Mean interval at which each replica scrapes each endpoint, ms (default 50, llm-d's refresh interval). */
  readonly scrapeIntervalMs?: number;
  /**
   * `snapshot` maps engine state straight to endpoint metrics (fast); `prometheus` renders the
   * `/metrics` page and parses it with core's data layer, as a live scrape would (default `snapshot`).
   */
  readonly metricsVia?: 'snapshot' | 'prometheus';
  /** Median delay between an engine step and its KV events reaching a replica, ms (default 10). */
  readonly kvEventDelayMs?: number;
  /** Gateway replicas, each with its own policy instance (default 1). */
  readonly gateways?: number;
  /**
   * Replicas share state (in-flight load, routing history, session bindings) through an
   * in-memory hub standing in for Redis, syncing every this many virtual ms. Default: not shared.
   */
  readonly sharedStateSyncMs?: number;
  /** Scrape jitter, KV-event delay distribution and loss (defaults: {@link DEFAULT_SIGNAL_TIMING}). */
  readonly signals?: Partial<SignalTiming>;
  /** Gateway CPU per request charged to simulated time (default {@link DEFAULT_GATEWAY_CPU}; false = free). */
  readonly gatewayCpu?: GatewayCpuModel | false;
  /** Interval of per-endpoint load samples in the report, ms (default 1000). */
  readonly sampleIntervalMs?: number;
  /** Membership changes during the run. */
  readonly membership?: readonly MembershipChange[];
  /** Stop at this virtual time even if requests are outstanding, ms (default: the latest arrival estimate of any item + 30 min). */
  readonly maxDurationMs?: number;
  /** Called every ~2% of completed requests. */
  readonly onProgress?: (done: number, total: number, virtualMs: number) => void;
}
