import { DESTINATION_HEADER } from '@switchyard/core';
import type { Decision, Endpoint, InferenceRequest, RequestOutcome, ResponseStartInfo, Usage } from '@switchyard/core';
import type { GatewayPool } from './pool.js';
import type { EndpointRotation } from './rotation.js';

/**
 * What the gateway forwards and whom it reports to: built from a scheduler decision, or, in
 * FailOpen mode, from an endpoint chosen without scheduling.
 * @public
 */
export interface ForwardPlan {
  /** Primary first, then fallbacks. */
  readonly targets: readonly Endpoint[];
  /** Headers to add to the forwarded request. */
  readonly headers: Readonly<Record<string, string>>;
  /** Headers to add to the client's response (e.g. a session token). */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** Body to send. */
  readonly body: Uint8Array;
  /** Name the upstream answers with → name the client asked for, when they differ. */
  readonly rewriteModel: { readonly from: string; readonly to: string } | undefined;
  /** Aborts when admission revokes the request (eviction). */
  readonly revoked: AbortSignal | undefined;
  /** Lifecycle hooks (no-ops without a decision). */
  onResponseStart(info: ResponseStartInfo): void;
  /** Reports usage. */
  onUsage(usage: Usage): void;
  /** Reports one upstream response body chunk of `bytes` bytes. */
  onResponseChunk(bytes: number): void;
  /** Reports time spent relaying the response, ms (`Decision.onResponseProcessing`). */
  onResponseProcessing(ms: number): void;
  /** Ends the lifecycle; later calls are ignored. */
  complete(outcome: RequestOutcome): void;
}

/**
 * Orders a decision's targets for forwarding: endpoints out of rotation move behind the others
 * (they are only tried when nothing else is left), so a breaker that opened after the decision
 * still protects this request.
 * @public
 */
export function orderTargets(targets: readonly Endpoint[], rotation: EndpointRotation | undefined): readonly Endpoint[] {
  if (rotation === undefined || !targets.some((t) => rotation.isOut(t.id))) return targets;
  return [...targets.filter((t) => !rotation.isOut(t.id)), ...targets.filter((t) => rotation.isOut(t.id))];
}

/**
 * A plan from a scheduler decision; `complete` is guarded to run exactly once.
 * @public
 */
export function planFromDecision(decision: Decision, rotation: EndpointRotation | undefined): ForwardPlan {
  return new DecisionPlan(decision, rotation);
}

/**
 * Plans are classes rather than object literals: a plan lives as long as its request, and V8 may
 * pretenure a long-lived literal's allocation site, after which every young object the plan
 * references survives scavenges until the next full GC (see docs/performance.md).
 */
class DecisionPlan implements ForwardPlan {
  readonly targets: readonly Endpoint[];
  readonly headers: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly rewriteModel: { readonly from: string; readonly to: string } | undefined;
  readonly revoked: AbortSignal | undefined;
  readonly #decision: Decision;
  #completed = false;

  constructor(decision: Decision, rotation: EndpointRotation | undefined) {
    const target = decision.request.targetModel;
    const client = decision.clientModel;
    this.#decision = decision;
    this.targets = orderTargets(decision.targets ?? targetList(decision.primary, decision.fallbacks), rotation);
    this.headers = decision.headers;
    this.responseHeaders = decision.responseHeaders;
    this.body = decision.body;
    this.rewriteModel = target !== client && client !== '' ? new ModelRename(target, client) : undefined;
    this.revoked = decision.revoked;
  }

  onResponseStart(info: ResponseStartInfo): void {
    this.#decision.onResponseStart(info);
  }

  onUsage(usage: Usage): void {
    this.#decision.onUsage(usage);
  }

  onResponseChunk(bytes: number): void {
    this.#decision.onResponseChunk?.(bytes);
  }

  onResponseProcessing(ms: number): void {
    this.#decision.onResponseProcessing?.(ms);
  }

  complete(outcome: RequestOutcome): void {
    if (this.#completed) return;
    this.#completed = true;
    this.#decision.complete(outcome);
  }
}

/**
 * Primary then fallbacks, for schedulers whose decisions do not carry `targets`. A lone target's
 * list is shared per endpoint (frozen): most decisions have no fallbacks, and building even a
 * one-element list per request costs, since it lives as long as the forward. Longer lists use
 * `Array.of`, not a literal, whose allocation site V8 may pretenure (see `DecisionPlan`).
 */
function targetList(primary: Endpoint, fallbacks: readonly Endpoint[]): readonly Endpoint[] {
  if (fallbacks.length === 0) return soleTarget(primary);
  const out = Array.of(primary);
  for (const f of fallbacks) out.push(f);
  return out;
}

const soleTargets = new WeakMap<Endpoint, readonly Endpoint[]>();

function soleTarget(endpoint: Endpoint): readonly Endpoint[] {
  let list = soleTargets.get(endpoint);
  if (list === undefined) {
    list = Object.freeze(Array.of(endpoint));
    soleTargets.set(endpoint, list);
  }
  return list;
}

/** Upstream model name → client model name (a class for the same reason as the plans). */
class ModelRename {
  constructor(
    readonly from: string,
    readonly to: string,
  ) {}
}

/**
 * FailOpen: forwards to the pool's endpoints in round-robin order, without scheduling, admission
 * or in-flight accounting. The body is forwarded as received (with the route's model rename, if
 * any). Returns undefined when the pool has no endpoints to try.
 * @public
 */
export function failOpenPlan(pool: GatewayPool, request: InferenceRequest, modelRewrite: string | undefined, cursor: Map<string, number>, maxAttempts: number): ForwardPlan | undefined {
  const endpoints = pool.endpoints?.list() ?? [];
  if (endpoints.length === 0) return undefined;
  const start = (cursor.get(pool.name) ?? 0) % endpoints.length;
  cursor.set(pool.name, start + 1);
  const targets: Endpoint[] = [];
  for (let i = 0; i < Math.min(maxAttempts, endpoints.length); i++) targets.push(endpoints[(start + i) % endpoints.length] as Endpoint);
  let body = request.rawBody;
  if (modelRewrite !== undefined && request.body !== undefined) {
    body = Buffer.from(JSON.stringify({ ...request.body, model: modelRewrite }));
  }
  return new FailOpenPlan(orderTargets(targets, pool.rotation), body, modelRewrite !== undefined && request.model !== '' ? new ModelRename(modelRewrite, request.model) : undefined);
}

/** FailOpen's plan: no decision behind it, so the lifecycle hooks do nothing. */
class FailOpenPlan implements ForwardPlan {
  readonly headers: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>> = {};
  readonly revoked: AbortSignal | undefined = undefined;

  constructor(
    readonly targets: readonly Endpoint[],
    readonly body: Uint8Array,
    readonly rewriteModel: { readonly from: string; readonly to: string } | undefined,
  ) {
    this.headers = { [DESTINATION_HEADER]: (targets[0] as Endpoint).address };
  }

  onResponseStart(): void {}
  onUsage(): void {}
  onResponseChunk(): void {}
  onResponseProcessing(): void {}
  complete(): void {}
}
