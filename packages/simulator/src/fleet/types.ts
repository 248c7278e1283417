import type { Clock, EndpointPool, RequestScheduler } from '@switchyard/core';
import type { EngineModel } from '../engine/engine.js';
import type { EngineProfile } from '../engine/types.js';
import type { EngineConfigInput } from '../engine/config.js';
import type { KvEventBatch } from '../engine/kv-events.js';

/**
 * What a policy may see of the simulated fleet (the oracle reads true engine state through it).
 * @public
 */
export interface FleetView {
  /** Engine behind an endpoint id (undefined once it left or failed). */
  engine(endpointId: string): EngineModel | undefined;
}

/**
 * What a policy factory receives.
 * @public
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
}

/**
 * A routing policy under test: any `RequestScheduler` (normally a real `EndpointPicker`),
 * plus an optional sink for the engines' KV events (delivered after the configured delay).
 * @public
 */
export interface SimPolicy {
  /** Name shown in reports. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The scheduler. */
  readonly scheduler: RequestScheduler;
  /** Receives each endpoint's KV event batches (the precise index's push API). */
  readonly onKvEvents?: ((endpointId: string, batch: KvEventBatch) => void) | undefined;
  /** Releases resources at the end of the run. */
  readonly close?: (() => void | Promise<void>) | undefined;
}

/**
 * Builds a policy for one run.
 * @public
 */
export type PolicyFactory = (ctx: PolicyContext) => SimPolicy | Promise<SimPolicy>;

/**
 * A change of fleet membership during a run: `join` adds pod `pod` (a new index adds a pod),
 * `leave` drains it (no new requests; running ones finish), `fail` kills it (its requests fail).
 * @public
 */
export interface MembershipChange {
  /** Virtual time, ms. */
  readonly atMs: number;
  /** What happens. */
  readonly action: 'join' | 'leave' | 'fail';
  /** Pod index. */
  readonly pod: number;
}

/**
 * Options of {@link runVirtualFleet}.
 * @public
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
  /** How often each endpoint's metrics reach the pool, ms (default 50, llm-d's refresh interval). */
  readonly scrapeIntervalMs?: number;
  /**
   * `snapshot` maps engine state straight to endpoint metrics (fast); `prometheus` renders the
   * `/metrics` page and parses it with core's data layer, as a live scrape would (default `snapshot`).
   */
  readonly metricsVia?: 'snapshot' | 'prometheus';
  /** Delay between an engine step and its KV events reaching the policy, ms (default 10). */
  readonly kvEventDelayMs?: number;
  /** Interval of per-endpoint load samples in the report, ms (default 1000). */
  readonly sampleIntervalMs?: number;
  /** Membership changes during the run. */
  readonly membership?: readonly MembershipChange[];
  /** Stop at this virtual time even if requests are outstanding, ms (default: last arrival + 30 min). */
  readonly maxDurationMs?: number;
  /** Called every ~2% of completed requests. */
  readonly onProgress?: (done: number, total: number, virtualMs: number) => void;
}
