/*
 * Test-only: a small RequestScheduler with observable lifecycles, for tests that must not depend
 * on the real picker's scoring (queueing, cancellation, revocation, lifecycle accounting).
 * Not exported from the package.
 */
import {
  AttributeMap,
  SwitchyardError,
  type Decision,
  type Endpoint,
  type EndpointPool,
  type InferenceRequest,
  type PickOptions,
  type RequestOutcome,
  type RequestScheduler,
  type ResponseStartInfo,
  type Usage,
} from '@switchyard/core';

/** Options of {@link FakeScheduler}. */
export interface FakeSchedulerOptions {
  /** Model rewrites applied to the body (client model → target). */
  readonly rewrites?: Readonly<Record<string, string>>;
  /** Fallbacks returned after the primary. */
  readonly fallbacks?: number;
  /** Hold every pick until `release()` (simulates flow-control queueing). */
  readonly gated?: boolean;
  /** Throw this from every pick. */
  readonly error?: Error;
  /** Extra decision headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Decision response headers. */
  readonly responseHeaders?: Readonly<Record<string, string>>;
}

/** Observable record of one decision. */
export interface FakeDecisionRecord {
  readonly request: InferenceRequest;
  readonly options: PickOptions | undefined;
  readonly outcomes: RequestOutcome[];
  readonly usages: Usage[];
  readonly starts: ResponseStartInfo[];
  readonly revoke: AbortController;
}

/** A fake picker: least in-flight endpoint of the pool (subset hint by IP), with accounting. */
export class FakeScheduler implements RequestScheduler {
  readonly records: FakeDecisionRecord[] = [];
  waiting = 0;
  #gate: { promise: Promise<void>; open: () => void } | undefined;

  constructor(
    readonly pool: EndpointPool,
    readonly options: FakeSchedulerOptions = {},
  ) {
    if (options.gated === true) this.#gate = makeGate();
  }

  /** Decisions not completed yet. */
  get active(): number {
    return this.records.filter((r) => r.outcomes.length === 0).length;
  }

  /** Lets every held pick through. */
  release(): void {
    this.#gate?.open();
    this.#gate = undefined;
  }

  async pick(request: InferenceRequest, options?: PickOptions): Promise<Decision> {
    if (this.options.error !== undefined) throw this.options.error;
    const gate = this.#gate;
    if (gate !== undefined) {
      this.waiting++;
      try {
        await waitOrAbort(gate.promise, options?.signal);
      } finally {
        this.waiting--;
      }
    }
    if (request.model === '') throw new SwitchyardError('BAD_REQUEST', 'model not found in request body');
    let candidates = this.pool.list();
    const hint = options?.subsetHint;
    if (hint !== undefined) candidates = candidates.filter((e) => hint.some((h) => h.split(':')[0] === e.ip));
    if (candidates.length === 0) throw new SwitchyardError('REJECTED_NO_ENDPOINTS', 'no candidate endpoints');
    const sorted = [...candidates].sort((a, b) => a.inFlightRequests - b.inFlightRequests);
    const [primary, ...rest] = sorted as [Endpoint, ...Endpoint[]];
    const target = this.options.rewrites?.[request.model] ?? request.model;
    const body = target === request.model ? request.rawBody : Buffer.from(JSON.stringify({ ...request.body, model: target }));
    const record: FakeDecisionRecord = { request, options, outcomes: [], usages: [], starts: [], revoke: new AbortController() };
    this.records.push(record);
    this.pool.addInFlight(primary.id, 1, 0);
    const pool = this.pool;
    return {
      request: {
        request, id: request.id, targetModel: target, fairnessId: 'default-flow', objective: undefined, priority: 0,
        sloTtftMs: undefined, sloTpotMs: undefined, receivedAt: 0, subsetHint: hint, attributes: new AttributeMap(),
      },
      primary,
      fallbacks: rest.slice(0, this.options.fallbacks ?? 0),
      result: { profileResults: new Map(), primaryProfileName: 'default' },
      headers: { ...(this.options.headers ?? {}) },
      responseHeaders: { ...(this.options.responseHeaders ?? {}) },
      body,
      clientModel: request.model,
      trace: undefined,
      revoked: record.revoke.signal,
      onResponseStart: (info) => record.starts.push(info),
      onUsage: (usage) => record.usages.push(usage),
      complete(outcome) {
        if (record.outcomes.length === 0) pool.addInFlight(primary.id, -1, 0);
        record.outcomes.push(outcome);
      },
    };
  }
}

function makeGate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

function waitOrAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      reject(new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'cancelled while queued'));
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      reject,
    );
  });
}
