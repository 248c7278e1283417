import { z } from 'zod';
import type { EndpointPool } from '../../endpoints/pool.js';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import type { CycleContext, Plugin, RequestLifecycle, ResponseStartInfo, Screener } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';
import { matchesLabels, parseLabelSelector, type LabelSelector } from '../../selectors/label-selector.js';
import { RolloutScreenerMetrics } from './rollout-metrics.js';

/**
 * Type of llm-d's DisaggregatedSet rollout screener. @public
 * @category Built-in plugins
 */
export const DISAGGREGATEDSET_ROLLOUT_SCREENER = 'disaggregatedset-rollout-screener';

const labelSelectorText = z.string().min(1).superRefine((text, ctx) => {
  try {
    parseLabelSelector(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
  }
});

const headerSelector = z.strictObject({
  name: z.string().min(1),
  headerName: z.string().min(1).transform((h) => h.toLowerCase()),
  labelKey: z.string().min(1),
  mode: z.enum(['strict', 'prefer']),
});

/**
 * Parameters of `disaggregatedset-rollout-screener`, as llm-d decodes them (strictly, and
 * required): the pods in `scope`, header selectors pinning a label, and revision gating.
 * @public
 * @category Built-in plugins
 */
export const disaggregatedsetRolloutScreenerParameters = z.strictObject({
  scope: z.strictObject({ labelSelector: labelSelectorText }),
  headerSelectors: z.array(headerSelector).default([]).superRefine((list, ctx) => {
    for (const field of ['name', 'headerName'] as const) {
      const seen = new Set<string>();
      list.forEach((s, i) => {
        if (seen.has(s[field])) ctx.addIssue({ code: 'custom', path: [i, field], message: `duplicate ${field} "${s[field]}"` });
        seen.add(s[field]);
      });
    }
  }),
  revisionGating: z
    .strictObject({
      revisionLabelKey: z.string().min(1).default('disaggregatedset.x-k8s.io/revision'),
      roleLabelKey: z.string().min(1).default('disaggregatedset.x-k8s.io/role'),
      mode: z.enum(['sum', 'max-role', 'disabled']),
      requireRoles: z.strictObject({ values: z.array(z.string().min(1)) }).optional(),
    })
    .superRefine((g, ctx) => {
      if (g.mode === 'disabled') return;
      const values = g.requireRoles?.values ?? [];
      if (values.length === 0) ctx.addIssue({ code: 'custom', path: ['requireRoles', 'values'], message: `required and non-empty with mode ${g.mode}` });
      const dup = values.find((v, i) => values.indexOf(v) !== i);
      if (dup !== undefined) ctx.addIssue({ code: 'custom', path: ['requireRoles', 'values'], message: `duplicate role "${dup}"` });
    }),
});

type Params = z.output<typeof disaggregatedsetRolloutScreenerParameters>;

/**
 * The traffic split of a rollout: each covered revision's weight (a revision is covered when
 * every required role has at least one ready pod), and the share of every revision seen.
 * @public
 * @category Built-in plugins
 */
export interface RevisionDistribution {
  /** Weight of each covered revision (> 0). */
  readonly weights: ReadonlyMap<string, number>;
  /** Share of every revision seen, 0 for incomplete ones. */
  readonly shares: ReadonlyMap<string, number>;
}

/** The pod an endpoint id belongs to: llm-d's `<namespace>/<pod>-rank-<i>` without the rank. */
const podOf = (endpoint: Endpoint): string => endpoint.id.replace(/-rank-\d+$/, '');

/**
 * The distribution over `endpoints` (the pool's, i.e. its ready pods): ready pods per revision and
 * role among those matching `scope` and carrying both labels; `sum` weighs a covered revision by
 * its pods in the required roles, `max-role` by its pods in the dominant role (the required role
 * with most pods over covered revisions, the first listed on ties).
 * @public
 * @category Built-in plugins
 */
export function revisionDistribution(
  endpoints: readonly Endpoint[],
  scope: LabelSelector,
  gating: { readonly revisionLabelKey: string; readonly roleLabelKey: string; readonly mode: 'sum' | 'max-role'; readonly roles: readonly string[] },
): RevisionDistribution {
  const pods = new Map<string, Map<string, Set<string>>>(); // revision → role → pods
  for (const e of endpoints) {
    const revision = e.labels[gating.revisionLabelKey];
    const role = e.labels[gating.roleLabelKey];
    if (revision === undefined || revision === '' || role === undefined || role === '' || !matchesLabels(scope, e.labels)) continue;
    let byRole = pods.get(revision);
    if (byRole === undefined) pods.set(revision, (byRole = new Map<string, Set<string>>()));
    let set = byRole.get(role);
    if (set === undefined) byRole.set(role, (set = new Set<string>()));
    set.add(podOf(e));
  }
  const count = (revision: string, role: string): number => pods.get(revision)?.get(role)?.size ?? 0;
  const covered = [...pods.keys()].filter((r) => gating.roles.every((role) => count(r, role) > 0));
  let dominant = gating.roles[0] ?? '';
  if (gating.mode === 'max-role') {
    let most = -1;
    for (const role of gating.roles) {
      const total = covered.reduce((n, r) => n + count(r, role), 0);
      if (total > most) [dominant, most] = [role, total];
    }
  }
  const weights = new Map<string, number>();
  for (const r of covered) weights.set(r, gating.mode === 'sum' ? gating.roles.reduce((n, role) => n + count(r, role), 0) : count(r, dominant));
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const shares = new Map<string, number>();
  for (const r of [...pods.keys()].sort()) shares.set(r, total > 0 ? (weights.get(r) ?? 0) / total : 0);
  return { weights, shares };
}

/** A weighted draw over revision names in ascending order, `u` in [0, 1). */
function drawRevision(weights: ReadonlyMap<string, number>, u: number): string | undefined {
  const names = [...weights.keys()].sort();
  const total = names.reduce((n, r) => n + (weights.get(r) ?? 0), 0);
  let x = u * total;
  for (const r of names) {
    x -= weights.get(r) ?? 0;
    if (x < 0) return r;
  }
  return names[names.length - 1];
}

class RolloutScreener implements Screener, RequestLifecycle {
  readonly type = DISAGGREGATEDSET_ROLLOUT_SCREENER;
  readonly #scope: LabelSelector;
  readonly #pool: EndpointPool;
  readonly #metrics: RolloutScreenerMetrics | undefined;
  #distribution: RevisionDistribution | undefined;
  readonly #invalidate = (): void => {
    this.#distribution = undefined;
  };

  constructor(readonly name: string, private readonly p: Params, pool: EndpointPool, metrics: RolloutScreenerMetrics | undefined) {
    this.#scope = parseLabelSelector(p.scope.labelSelector);
    this.#pool = pool;
    this.#metrics = metrics;
    // The pool is the pod snapshot (discovery keeps ready pods): rebuild when it changes.
    for (const event of ['added', 'updated', 'removed'] as const) pool.on(event, this.#invalidate);
  }

  /** The current distribution, rebuilt after a pool change (and its gauge updated). */
  distribution(): RevisionDistribution | undefined {
    const g = this.p.revisionGating;
    if (g.mode === 'disabled') return undefined;
    if (this.#distribution === undefined) {
      this.#distribution = revisionDistribution(this.#pool.list(), this.#scope, { revisionLabelKey: g.revisionLabelKey, roleLabelKey: g.roleLabelKey, mode: g.mode, roles: g.requireRoles?.values ?? [] });
      this.#metrics?.shares(this.#distribution.shares);
    }
    return this.#distribution;
  }

  screen(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): readonly Endpoint[] {
    const headers = request.request.headers;
    const strict = this.p.headerSelectors.filter((s) => s.mode === 'strict' && (headers[s.headerName] ?? '') !== '');
    let kept = endpoints;
    const dist = this.distribution();
    if (dist !== undefined) {
      const key = this.p.revisionGating.revisionLabelKey;
      kept = kept.filter((e) => (dist.weights.get(e.labels[key] ?? '') ?? 0) > 0);
      // Without a strict pin, one revision serves the request, drawn by the revisions' weights.
      if (strict.length === 0) {
        const revision = drawRevision(dist.weights, ctx.random());
        kept = kept.filter((e) => e.labels[key] === revision);
      }
    }
    for (const s of strict) {
      const value = headers[s.headerName];
      kept = kept.filter((e) => e.labels[s.labelKey] === value);
      if (kept.length === 0) {
        this.#metrics?.noMatch(s.name);
        return kept;
      }
    }
    return kept;
  }

  onResponseStart(_request: SchedulingRequest, info: ResponseStartInfo): void {
    const out = info.responseHeaders;
    if (out === undefined) return;
    // Clients read the served endpoint's labels back to pin follow-up requests.
    for (const s of this.p.headerSelectors) {
      const value = info.endpoint.labels[s.labelKey];
      if (value !== undefined && value !== '') out[s.headerName] = value;
    }
  }

  close(): void {
    for (const event of ['added', 'updated', 'removed'] as const) this.#pool.off(event, this.#invalidate);
  }
}

/**
 * `disaggregatedset-rollout-screener` (llm-d, alpha): during a rolling update of a
 * DisaggregatedSet, keeps each request on one revision whose roles are all up — drawn by the
 * revisions' ready pods (`sum`) or their dominant role's pods (`max-role`), all covered revisions
 * when a `strict` header pins a label — and drops endpoints whose `labelKey` differs from a
 * present `strict` header (none left: 503). Every selector's label of the served endpoint is
 * echoed in its `headerName` response header. llm-d watches Pods; here the endpoint pool (the
 * ready pods discovery reported, with their labels) is the snapshot.
 * @public
 * @category Built-in plugins
 */
export const disaggregatedsetRolloutScreenerPlugin = definePlugin({
  type: DISAGGREGATEDSET_ROLLOUT_SCREENER,
  description: 'Screener: keeps requests on one covered DisaggregatedSet revision and honours strict label headers.',
  parameters: disaggregatedsetRolloutScreenerParameters,
  create: (p, ctx): Plugin & Screener & RequestLifecycle =>
    new RolloutScreener(ctx.name, p, ctx.pool, ctx.metrics === undefined ? undefined : new RolloutScreenerMetrics(ctx.metrics, DISAGGREGATEDSET_ROLLOUT_SCREENER, ctx.name, p.revisionGating.mode)),
});
