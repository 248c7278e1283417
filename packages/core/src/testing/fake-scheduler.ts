/*
 * A RequestScheduler for adapter and gateway tests that must not depend on the real picker's
 * scoring: it picks predictably, can queue, fail or be gated on demand, and records every
 * lifecycle call so a test can assert that each decision completed exactly once.
 */
import type { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint } from '../endpoints/types.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { readClassificationHeader } from '../headers/header-bag.js';
import { DESTINATION_HEADER } from '../headers/names.js';
import type { Decision, PickOptions, RequestScheduler } from '../picker/types.js';
import type { InferenceRequest } from '../request/types.js';
import { createSchedulingRequest } from '../scheduling/make-request.js';
import type { RequestOutcome, ResponseStartInfo, Usage } from '../scheduling/plugins.js';
import type { SchedulingRequest } from '../scheduling/request.js';

/**
 * What {@link FakeScheduler} does with one request: pick (`ok`), throw a plain `Error` (`throw`),
 * hold the pick until `release()` or the pick's signal aborts (`queue`), or throw the given error.
 * @public
 */
export type FakeBehavior = 'ok' | 'throw' | 'queue' | Error;

/**
 * Options of {@link FakeScheduler}.
 * @public
 */
export interface FakeSchedulerOptions {
  /** Model rewrites (client model → target); the decision body carries the target. */
  readonly rewrites?: Readonly<Record<string, string>>;
  /**
   * Fallbacks returned after the primary (as many as the pool has).
   * @defaultValue 0
   */
  readonly fallbacks?: number;
  /**
   * How the primary is chosen: `round-robin` over the candidates, or the `least-loaded`
   * (fewest in-flight requests, first on a tie).
   * @defaultValue 'round-robin'
   */
  readonly order?: 'round-robin' | 'least-loaded';
  /** Start with every pick held until `release()` (behaviour `queue`). */
  readonly gated?: boolean;
  /** Throw this from every pick. */
  readonly error?: Error;
  /** Extra decision headers (the destination header is always set). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Decision response headers, fixed or computed from the primary endpoint. */
  readonly responseHeaders?: Readonly<Record<string, string>> | ((primary: Endpoint) => Readonly<Record<string, string>>);
}

/**
 * One decision handed out, with everything the adapter reported back.
 * @public
 */
export interface FakeDecisionRecord {
  /** The request as the adapter passed it to `pick`. */
  readonly request: InferenceRequest;
  /** The scheduling request of the decision (target model, fairness id, subset hint). */
  readonly scheduled: SchedulingRequest;
  /** The pick options the adapter passed. */
  readonly options: PickOptions | undefined;
  /** Every `complete()` call, in order (exactly one is correct). */
  readonly outcomes: RequestOutcome[];
  /** Every `onUsage()` call. */
  readonly usages: Usage[];
  /** Every `onResponseStart()` call. */
  readonly starts: ResponseStartInfo[];
  /** Every `onResponseProcessing()` call (ms the adapter spent on the response). */
  readonly processing: number[];
  /** Aborting it revokes the decision (as flow-control eviction does). */
  readonly revoke: AbortController;
}

/**
 * A fake {@link RequestScheduler}. Honours the pick options like the real picker: the subset hint
 * (by IP) narrows the candidates, classification and (when `trustClassificationHeaders` is not false) the
 * classification headers set the target model, fairness id and objective. It accounts in-flight
 * load on the pool between pick and `complete()`.
 * @public
 */
export class FakeScheduler implements RequestScheduler {
  /** Every decision handed out, in order. */
  readonly decisions: FakeDecisionRecord[] = [];
  /** What to do with each request; tests may replace it at any time. */
  behavior: (request: InferenceRequest) => FakeBehavior;
  /** Picks currently held (behaviour `queue`). */
  waiting = 0;
  #next = 0;
  #release = new Set<() => void>();

  constructor(
    readonly pool: EndpointPool,
    readonly options: FakeSchedulerOptions = {},
  ) {
    const fixed: FakeBehavior = options.error ?? (options.gated === true ? 'queue' : 'ok');
    this.behavior = () => fixed;
  }

  /** Decisions not completed yet. */
  get active(): number {
    return this.decisions.filter((d) => d.outcomes.length === 0).length;
  }

  /** Decisions whose lifecycle was not completed exactly once. */
  badLifecycles(): FakeDecisionRecord[] {
    return this.decisions.filter((d) => d.outcomes.length !== 1);
  }

  /** Lets every held pick through, and stops holding later ones that a `gated` option held. */
  release(): void {
    if (this.options.gated === true && this.options.error === undefined) this.behavior = () => 'ok';
    for (const go of [...this.#release]) go();
  }

  async pick(request: InferenceRequest, options?: PickOptions): Promise<Decision> {
    const behavior = this.behavior(request);
    if (behavior === 'throw') throw new Error('scheduler exploded');
    if (behavior instanceof Error) throw behavior;
    if (behavior === 'queue') await this.#hold(options?.signal);
    if (request.model === '') throw new SwitchyardError('BAD_REQUEST', 'model not found in request body');
    const hint = options?.subsetHint;
    const candidates = hint === undefined ? this.pool.list() : this.pool.list().filter((e) => hint.some((h) => h.split(':')[0] === e.ip));
    if (candidates.length === 0) throw new SwitchyardError('REJECTED_NO_ENDPOINTS', 'no candidate endpoints');
    const targets = this.#order(candidates);
    const scheduled = this.#schedulingRequest(request, options);
    const target = scheduled.targetModel;
    const body = target === request.model || request.body === undefined ? request.rawBody : new TextEncoder().encode(JSON.stringify({ ...(request.body as object), model: target }));
    const record: FakeDecisionRecord = { request, scheduled, options, outcomes: [], usages: [], starts: [], processing: [], revoke: new AbortController() };
    this.decisions.push(record);
    const primary = targets[0] as Endpoint;
    const pool = this.pool;
    pool.addInFlight(primary.id, 1, 0);
    return {
      request: scheduled,
      primary,
      fallbacks: targets.slice(1),
      result: { profileResults: new Map(), primaryProfileName: 'default' },
      headers: { [DESTINATION_HEADER]: targets.map((t) => t.address).join(','), ...this.options.headers },
      responseHeaders: { ...(typeof this.options.responseHeaders === 'function' ? this.options.responseHeaders(primary) : this.options.responseHeaders) },
      body,
      clientModel: request.model,
      trace: undefined,
      revoked: record.revoke.signal,
      onResponseStart: (info) => record.starts.push(info),
      onUsage: (usage) => record.usages.push(usage),
      onResponseProcessing: (ms) => record.processing.push(ms),
      complete(outcome) {
        if (record.outcomes.length === 0) pool.addInFlight(primary.id, -1, 0);
        record.outcomes.push(outcome);
      },
    };
  }

  /** Primary first, then up to `fallbacks` more. */
  #order(candidates: readonly Endpoint[]): Endpoint[] {
    const n = Math.min(candidates.length, 1 + (this.options.fallbacks ?? 0));
    if (this.options.order === 'least-loaded') return [...candidates].sort((a, b) => a.inFlightRequests - b.inFlightRequests).slice(0, n);
    const start = this.#next++ % candidates.length;
    return Array.from({ length: n }, (_, i) => candidates[(start + i) % candidates.length] as Endpoint);
  }

  #schedulingRequest(request: InferenceRequest, options: PickOptions | undefined): SchedulingRequest {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- honours the old name as the picker does
    const trusted = options?.trustClassificationHeaders ?? options?.trustHeaders ?? true;
    const c = options?.classification;
    const header = (field: 'modelRewrite' | 'fairnessId' | 'objective'): string | undefined => (trusted ? readClassificationHeader(request.headers, field) : undefined);
    return createSchedulingRequest(request, {
      targetModel: c?.modelRewrite ?? header('modelRewrite') ?? this.options.rewrites?.[request.model] ?? request.model,
      fairnessId: c?.fairnessId ?? header('fairnessId') ?? 'default-flow',
      objective: c?.objective ?? header('objective'),
      subsetHint: options?.subsetHint,
    });
  }

  /** Waits for `release()`; an aborted signal rejects as a cancelled queued request would. */
  #hold(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const finish = (): void => {
        this.waiting--;
        this.#release.delete(go);
        signal?.removeEventListener('abort', cancel);
      };
      const go = (): void => {
        finish();
        resolve();
      };
      const cancel = (): void => {
        finish();
        reject(new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'cancelled while queued'));
      };
      this.waiting++;
      this.#release.add(go);
      if (signal?.aborted === true) cancel();
      else signal?.addEventListener('abort', cancel, { once: true });
    });
  }
}
