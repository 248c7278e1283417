import { SwitchyardError } from '../errors/switchyard-error.js';
import { readClassificationHeader } from '../headers/header-bag.js';
import type { InferenceRequest } from '../request/types.js';
import { Attributes } from '../scheduling/attributes.js';
import { createSchedulingRequest, DEFAULT_FAIRNESS_ID } from '../scheduling/make-request.js';
import type { SchedulingRequest } from '../scheduling/request.js';
import type { ModelRewriteResolver, ObjectiveLookup } from './lookups.js';
import { agentIdentityAttribute } from '../plugins/request-headers/agent-identity.js';
import type { RequestHeaderProcessor } from '../plugins/request-headers/request-header-processor.js';
import type { PickOptions } from './types.js';

/**
 * What the picker needs to classify a request.
 * @internal
 */
export interface ClassifyDeps {
  readonly objectives: ObjectiveLookup | undefined;
  readonly rewrites: ModelRewriteResolver | undefined;
  readonly random: () => number;
  /** The config's request-header processors (`agent-identity`), in config order. */
  readonly headerProcessors: readonly RequestHeaderProcessor[];
  /** Told each time a named rewrite rule rewrote the body model (for `model_rewrite_decisions_total`). */
  readonly onRewrite?: ((rewriteName: string, model: string, target: string) => void) | undefined;
}

/** The rewrite rule's model for `model` (named when the resolver can name it), or undefined. */
function rewriteOf(rewrites: ModelRewriteResolver | undefined, model: string, random: () => number): { readonly model: string; readonly rewriteName?: string } | undefined {
  if (rewrites === undefined || model === '') return undefined;
  if (rewrites.resolveRule !== undefined) return rewrites.resolveRule(model, random);
  const target = rewrites.resolve(model, random);
  return target === undefined ? undefined : { model: target };
}

/** A positive finite number of milliseconds, else undefined (llm-d ignores malformed SLOs). */
function sloMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** APIs whose bodies have no model field: nothing to require (SGLang's native generate names none). */
const WITHOUT_MODEL_FIELD: ReadonlySet<InferenceRequest['api']> = new Set<InferenceRequest['api']>(['passthrough', 'sglang-generate']);

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : v);

/**
 * Turns a parsed request into a {@link SchedulingRequest}: model rewrite (trusted classification
 * ‖ `x-llm-d-model-name-rewrite` ‖ body model, overridden by a rewrite rule matching the body
 * model), objective → priority, fairness id (‖ the agent identity of a request-header processor
 * ‖ `default-flow`), SLO headers. Headers are read
 * only when `trustClassificationHeaders` is not false.
 * @throws SwitchyardError `BAD_REQUEST` when no model can be determined for a model API
 * @internal
 */
export function classifyRequest(request: InferenceRequest, options: PickOptions, deps: ClassifyDeps, receivedAt: number): SchedulingRequest {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the old name is still honoured when the new one is unset
  const trust = (options.trustClassificationHeaders ?? options.trustHeaders) !== false;
  const cls = options.classification;
  const headers = request.headers;
  const header = (field: Parameters<typeof readClassificationHeader>[1]): string | undefined => (trust ? readClassificationHeader(headers, field) : undefined);

  let targetModel = nonEmpty(cls?.modelRewrite) ?? nonEmpty(header('modelRewrite')) ?? request.model;
  const ruled = rewriteOf(deps.rewrites, request.model, deps.random);
  if (ruled !== undefined && ruled.model !== '') {
    targetModel = ruled.model;
    if (ruled.rewriteName !== undefined) deps.onRewrite?.(ruled.rewriteName, request.model, ruled.model);
  }
  if (targetModel === '' && !WITHOUT_MODEL_FIELD.has(request.api)) {
    throw new SwitchyardError('BAD_REQUEST', 'model: required (the body names no model)');
  }
  const objective = nonEmpty(cls?.objective) ?? nonEmpty(header('objective'));
  // Request-header processors run whatever the trust setting: session headers are the client's own.
  let identity: string | undefined;
  for (const p of deps.headerProcessors) {
    identity = nonEmpty(p.identityOf(request));
    if (identity !== undefined) break;
  }
  const sreq = createSchedulingRequest(request, {
    targetModel,
    fairnessId: nonEmpty(cls?.fairnessId) ?? nonEmpty(header('fairnessId')) ?? identity ?? DEFAULT_FAIRNESS_ID,
    objective,
    priority: deps.objectives?.priorityOf(objective) ?? 0,
    sloTtftMs: sloMs(header('sloTtftMs')),
    sloTpotMs: sloMs(header('sloTpotMs')),
    receivedAt,
    subsetHint: options.subsetHint,
  });
  if (identity !== undefined) sreq.attributes.set(agentIdentityAttribute, identity);
  if (options.metadata !== undefined) sreq.attributes.set(Attributes.requestMetadata, options.metadata);
  return sreq;
}
