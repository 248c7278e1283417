import { AttributeMap, DESTINATION_HEADER, SwitchyardError, readClassificationHeader } from '@switchyard/core';
import type { Decision, Endpoint, EndpointPool, InferenceRequest, PickOptions, RequestOutcome, RequestScheduler, SchedulingRequest, Usage } from '@switchyard/core';

/** What the fake does with a request, chosen per request by the test. */
export type FakeBehavior = 'ok' | 'throw' | 'queue' | SwitchyardError;

/** One decision handed out, with what the gateway reported back. */
export interface FakeDecisionRecord {
  readonly request: SchedulingRequest;
  readonly options: PickOptions;
  readonly outcomes: RequestOutcome[];
  readonly usages: Usage[];
  readonly starts: string[];
  readonly revoke: AbortController;
}

/**
 * A round-robin RequestScheduler for tests: honours trust and classification like the real
 * picker, rewrites models from a table, accounts in-flight load, and records every lifecycle
 * call so tests can assert "completed exactly once".
 */
export class FakeScheduler implements RequestScheduler {
  readonly decisions: FakeDecisionRecord[] = [];
  /** Picks waiting in the fake queue. */
  queued = 0;
  behavior: (request: InferenceRequest) => FakeBehavior = () => 'ok';
  #next = 0;

  constructor(
    readonly pool: EndpointPool,
    readonly rewrites: Readonly<Record<string, string>> = {},
    readonly fallbacks = 2,
  ) {}

  async pick(request: InferenceRequest, options: PickOptions = {}): Promise<Decision> {
    const b = this.behavior(request);
    if (b === 'throw') throw new Error('scheduler exploded');
    if (b instanceof SwitchyardError) throw b;
    if (b === 'queue') {
      this.queued++;
      await new Promise<void>((_resolve, reject) => {
        const signal = options.signal;
        const fail = (): void => {
          this.queued--;
          reject(new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'cancelled while queued'));
        };
        if (signal === undefined) return;
        if (signal.aborted) fail();
        else signal.addEventListener('abort', fail, { once: true });
      });
    }
    const endpoints = this.pool.list();
    if (endpoints.length === 0) throw new SwitchyardError('REJECTED_NO_ENDPOINTS', 'no endpoints');
    const start = this.#next++ % endpoints.length;
    const targets: Endpoint[] = [];
    for (let i = 0; i < Math.min(endpoints.length, 1 + this.fallbacks); i++) targets.push(endpoints[(start + i) % endpoints.length] as Endpoint);
    const trusted = options.trustHeaders ?? true;
    const c = options.classification;
    const target = c?.modelRewrite ?? (trusted ? readClassificationHeader(request.headers, 'modelRewrite') : undefined) ?? this.rewrites[request.model] ?? request.model;
    const fairnessId = c?.fairnessId ?? (trusted ? readClassificationHeader(request.headers, 'fairnessId') : undefined) ?? 'default-flow';
    const sreq: SchedulingRequest = {
      request,
      id: request.id,
      targetModel: target,
      fairnessId,
      objective: c?.objective ?? (trusted ? readClassificationHeader(request.headers, 'objective') : undefined),
      priority: 0,
      sloTtftMs: undefined,
      sloTpotMs: undefined,
      receivedAt: 0,
      subsetHint: options.subsetHint,
      attributes: new AttributeMap(),
    };
    const body = target === request.model || request.body === undefined ? request.rawBody : Buffer.from(JSON.stringify({ ...request.body, model: target }));
    const record: FakeDecisionRecord = { request: sreq, options, outcomes: [], usages: [], starts: [], revoke: new AbortController() };
    this.decisions.push(record);
    const primary = targets[0] as Endpoint;
    this.pool.addInFlight(primary.id, 1, 0);
    return {
      request: sreq,
      primary,
      fallbacks: targets.slice(1),
      result: { profileResults: new Map(), primaryProfileName: 'default' },
      headers: { [DESTINATION_HEADER]: targets.map((t) => t.address).join(',') },
      responseHeaders: { 'x-session-token': Buffer.from(primary.id).toString('base64') },
      body,
      clientModel: request.model,
      trace: undefined,
      revoked: record.revoke.signal,
      onResponseStart: (info) => record.starts.push(info.endpoint.address),
      onUsage: (u) => record.usages.push(u),
      complete: (outcome) => {
        if (record.outcomes.length === 0) this.pool.addInFlight(primary.id, -1, 0);
        record.outcomes.push(outcome);
      },
    };
  }

  /** Decisions whose lifecycle was not completed exactly once. */
  badLifecycles(): FakeDecisionRecord[] {
    return this.decisions.filter((d) => d.outcomes.length !== 1);
  }
}
