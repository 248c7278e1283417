/**
 * Shared helpers of this package's tests (not part of the public API).
 * @internal
 */
import { schedulingRequest } from '@switchyard/core/testing';
import {
  EndpointPool,
  ManualClock,
  createConcurrencyDetector,
  type AdmissionGrant,
  type SaturationDetector,
  type SchedulingRequest,
} from '@switchyard/core';
import { createFlowController, type FlowController, type FlowControllerOptions } from '../index.js';

/** Fields a test request can set. */
export interface RequestSpec {
  readonly id?: string;
  readonly priority?: number;
  readonly fairnessId?: string;
  readonly bytes?: number;
  readonly sloTtftMs?: number;
  readonly receivedAt?: number;
  readonly maxOutputTokens?: number;
  /** The client's model (default `m`). */
  readonly model?: string;
  /** The model after rewrites (default: the client's). */
  readonly targetModel?: string;
}

let nextId = 0;

/** A scheduling request from the core test kit, with a fresh id unless `spec.id` names one. */
export function request(spec: RequestSpec = {}): SchedulingRequest {
  return schedulingRequest({
    priority: spec.priority ?? 0,
    fairnessId: spec.fairnessId ?? 'default-flow',
    sloTtftMs: spec.sloTtftMs,
    receivedAt: spec.receivedAt ?? 0,
    ...(spec.targetModel === undefined ? {} : { targetModel: spec.targetModel }),
    request: { id: spec.id ?? `r${nextId++}`, model: spec.model ?? 'm', prompt: { kind: 'none' }, byteSize: spec.bytes ?? 100, maxOutputTokens: spec.maxOutputTokens },
  });
}

/** A pool of `endpoints` members (addresses 10.9.0.x:8000). */
export function pool(endpoints: number, labels: Readonly<Record<string, string>> = {}): EndpointPool {
  const p = new EndpointPool();
  for (let i = 0; i < endpoints; i++) p.add({ address: `10.9.0.${i + 1}:8000`, labels });
  return p;
}

/** A detector that always reports a saturated pool. */
export const saturated: SaturationDetector = { type: 'test-saturated', name: 'test-saturated', saturation: () => 1 };

/** A detector whose value the test sets. */
export function dial(initial = 0): SaturationDetector & { value: number } {
  return { type: 'test-dial', name: 'test-dial', value: initial, saturation() { return this.value; } };
}

/** A controller gated by a concurrency detector: `slots` grants fit before the pool counts as saturated. */
export interface Harness {
  readonly clock: ManualClock;
  readonly pool: EndpointPool;
  readonly fc: FlowController;
}

/**
 * Builds a controller over one endpoint whose concurrency detector allows `slots` outstanding
 * grants (nothing else accounts in-flight load, so every grant counts as pending load); with 0
 * slots the pool is always saturated.
 */
export function harness(slots: number, options: Partial<FlowControllerOptions> = {}): Harness {
  const clock = new ManualClock();
  const p = options.pool ?? pool(1);
  const fc = createFlowController({
    pool: p,
    clock,
    detector: slots > 0 ? createConcurrencyDetector({ maxConcurrency: slots }) : saturated,
    metrics: false,
    ...options,
  });
  return { clock, pool: p, fc };
}

/** Tracks an admit call's settlement. */
export interface Tracked {
  readonly request: SchedulingRequest;
  grant: AdmissionGrant | undefined;
  error: unknown;
  readonly done: Promise<void>;
}

/** Calls `admit` and records the outcome without throwing. */
export function track(fc: FlowController, r: SchedulingRequest, options: Parameters<FlowController['admit']>[1] = {}): Tracked {
  const t: { request: SchedulingRequest; grant: AdmissionGrant | undefined; error: unknown; done: Promise<void> } = {
    request: r,
    grant: undefined,
    error: undefined,
    done: Promise.resolve(),
  };
  t.done = fc.admit(r, options).then(
    (g) => {
      t.grant = g;
    },
    (e: unknown) => {
      t.error = e;
    },
  );
  return t;
}

/** Reads one sample (e.g. `..._count`) from a registry's text exposition; 0 when absent. */
export async function sample(registry: { metrics(): Promise<string> }, name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
  const text = await registry.metrics();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}
