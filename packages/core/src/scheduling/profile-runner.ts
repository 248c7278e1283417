import type { Endpoint } from '../endpoints/types.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { PluginObserver } from './observer.js';
import type { CycleContext, Filter, Picker, ProfileResult, SchedulingProfile, Scorer } from './plugins.js';
import { LazyProfileResult } from './profile-result.js';
import type { SchedulingRequest } from './request.js';

/**
 * Outcome of one profile run: a result, or the error that failed the profile.
 * @internal
 */
export type ProfileOutcome = { readonly result: ProfileResult; readonly error?: undefined } | { readonly result: null; readonly error: SwitchyardError };

const clamp01 = (s: number): number => (s !== s ? 0 : s < 0 ? 0 : s > 1 ? 1 : s);

function ids(endpoints: readonly Endpoint[]): string[] {
  return endpoints.map((e) => e.id);
}

/**
 * Runs one {@link SchedulingProfile}: Filter → Score (Σ weight·clamp01(score), missing = 0) →
 * Pick. Plugin lists and weights are copied into arrays once; the per-scorer score buffer is
 * reused across cycles (profiles run synchronously), so a cycle allocates only the totals array
 * and whatever the plugins allocate themselves.
 * @internal
 */
export class ProfileRunner {
  readonly profile: SchedulingProfile;
  readonly #filters: readonly Filter[];
  readonly #scorers: readonly Scorer[];
  readonly #weights: Float64Array;
  readonly #picker: Picker;
  #scratch = new Float64Array(64);

  constructor(profile: SchedulingProfile) {
    this.profile = profile;
    this.#filters = [...profile.filters];
    this.#scorers = profile.scorers.map((s) => s.scorer);
    this.#weights = Float64Array.from(profile.scorers, (s) => s.weight);
    this.#picker = profile.picker;
  }

  /** Runs the profile over `candidates`; `observer` is set only on timed cycles. */
  run(ctx: CycleContext, request: SchedulingRequest, candidates: readonly Endpoint[], observer: PluginObserver | undefined): ProfileOutcome {
    const trace = ctx.trace;
    trace?.beginProfile(this.profile.name, ids(candidates));
    let endpoints = candidates;
    for (const f of this.#filters) {
      const t0 = observer === undefined ? 0 : ctx.clock.now();
      const kept = f.filter(ctx, request, endpoints);
      if (observer !== undefined) observer.record('Filter', f, ctx.clock.now() - t0);
      if (trace !== undefined) {
        const keptIds = new Set(ids(kept));
        trace.filter(f.name, endpoints.filter((e) => !keptIds.has(e.id)).map((e) => e.id));
      }
      endpoints = kept;
      if (endpoints.length === 0) {
        const message = `profile "${this.profile.name}": filter "${f.name}" removed every endpoint`;
        trace?.endProfile({}, [], message);
        return { result: null, error: new SwitchyardError('REJECTED_SATURATED', message) };
      }
    }

    const n = endpoints.length;
    const totals = new Float64Array(n);
    if (this.#scratch.length < n) this.#scratch = new Float64Array(Math.max(n, this.#scratch.length * 2));
    const scratch = this.#scratch;
    for (let j = 0; j < this.#scorers.length; j++) {
      const scorer = this.#scorers[j] as Scorer;
      const w = this.#weights[j] as number;
      const t0 = observer === undefined ? 0 : ctx.clock.now();
      if (scorer.scoreInto !== undefined) {
        scratch.fill(Number.NaN, 0, n);
        scorer.scoreInto(ctx, request, endpoints, scratch);
      } else {
        const map = scorer.score(ctx, request, endpoints);
        for (let i = 0; i < n; i++) scratch[i] = map.get((endpoints[i] as Endpoint).id) ?? Number.NaN;
      }
      if (observer !== undefined) observer.record('Scorer', scorer, ctx.clock.now() - t0);
      for (let i = 0; i < n; i++) {
        const s = clamp01(scratch[i] as number);
        scratch[i] = s;
        totals[i] = (totals[i] as number) + w * s;
      }
      if (trace !== undefined) {
        const rec: Record<string, number> = {};
        for (let i = 0; i < n; i++) rec[(endpoints[i] as Endpoint).id] = scratch[i] as number;
        trace.scorer(scorer.name, w, rec, explainScores(ctx, scorer, request, endpoints));
      }
    }

    const picker = this.#picker;
    const t0 = observer === undefined ? 0 : ctx.clock.now();
    const targets = picker.pickFrom !== undefined ? picker.pickFrom(ctx, request, endpoints, totals) : picker.pick(ctx, request, new LazyProfileResult([], endpoints, totals).scored);
    if (observer !== undefined) observer.record('Picker', picker, ctx.clock.now() - t0);
    if (trace !== undefined) {
      const rec: Record<string, number> = {};
      for (let i = 0; i < n; i++) rec[(endpoints[i] as Endpoint).id] = totals[i] as number;
      trace.endProfile(rec, ids(targets), targets.length === 0 ? `picker "${picker.name}" returned no endpoint` : undefined);
    }
    if (targets.length === 0) {
      return { result: null, error: new SwitchyardError('REJECTED_SATURATED', `profile "${this.profile.name}": picker "${picker.name}" returned no endpoint`) };
    }
    return { result: new LazyProfileResult(targets, endpoints, totals) };
  }
}

/** A scorer's `explain` output keyed by endpoint id, for the trace; undefined when it has none. */
function explainScores(ctx: CycleContext, scorer: Scorer, request: SchedulingRequest, endpoints: readonly Endpoint[]): Record<string, object> | undefined {
  if (scorer.explain === undefined) return undefined;
  const list = scorer.explain(ctx, request, endpoints);
  const out: Record<string, object> = {};
  for (let i = 0; i < endpoints.length; i++) {
    const d = list[i];
    if (d !== undefined) out[(endpoints[i] as Endpoint).id] = d;
  }
  return out;
}
