import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { NotActedOnReasons } from '../not-acted-on-reasons.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes, type LatencyPrediction } from '../../scheduling/attributes.js';
import type { SchedulingRequest } from '../../scheduling/request.js';
import { withinSlo } from '../slo.js';
import { arrayScorer } from './scorer-base.js';

/**
 * Parameters of `latency-scorer`.
 * @public
 * @category Built-in plugins
 */
export const latencyScorerParametersSchema = z.strictObject({
  /** Weight α of the normalised TTFT headroom. */
  ttftWeight: z.number().min(0).default(0.8),
  /** Weight β of the normalised TPOT headroom. */
  tpotWeight: z.number().min(0).default(0.2),
  /** `least` packs requests where headroom is smallest (bin packing); `most` spreads them. */
  headroomSelectionStrategy: z.enum(['least', 'most']).default('least'),
  /** Composite fallback (no predictions): weight of free KV cache. */
  compositeKVWeight: z.number().min(0).default(1),
  /** Composite fallback: weight of the relative queue length. */
  compositeQueueWeight: z.number().min(0).default(1),
  /** Composite fallback: weight of the prefix-match fraction. */
  compositePrefixWeight: z.number().min(0).default(1),
});

/**
 * Parsed `latency-scorer` parameters. @public
 * @category Built-in plugins
 */
export type LatencyScorerParameters = z.infer<typeof latencyScorerParametersSchema>;

const CONSUMES = [Attributes.predictedLatency.name] as const;

/** Headroom tiers of an endpoint. */
const Tier = { None: 0, Positive: 1, TpotNegative: 2, TtftNegative: 3, BothNegative: 4 } as const;
type Tier = (typeof Tier)[keyof typeof Tier];

function composite(p: LatencyScorerParameters, request: SchedulingRequest, endpoints: readonly Endpoint[], out: Float64Array): void {
  const sum = p.compositeKVWeight + p.compositeQueueWeight + p.compositePrefixWeight;
  const [wk, wq, wp] = sum === 0 ? [0, 0, 0] : [p.compositeKVWeight / sum, p.compositeQueueWeight / sum, p.compositePrefixWeight / sum];
  const matches = request.attributes.get(Attributes.prefixMatch);
  let maxQ = 0;
  for (const e of endpoints) maxQ = Math.max(maxQ, e.metrics?.waitingQueueSize ?? 0);
  endpoints.forEach((e, i) => {
    const kv = e.metrics?.kvCacheUsagePercent ?? 0;
    const q = e.metrics?.waitingQueueSize ?? 0;
    const m = matches?.get(e.id);
    const prefix = m === undefined || m.totalBlocks === 0 ? 0 : m.matchBlocks / m.totalBlocks;
    const queue = maxQ === 0 ? 1 : (maxQ - q) / maxQ;
    out[i] = Math.round(100 * (wk * (1 - kv) + wq * queue + wp * prefix)) / 100;
  });
}

/** Min-max normalises `values` (0.5 for everyone when the range is 0). */
function normalise(values: readonly number[]): { readonly n: number[]; readonly flat: boolean } {
  const min = Math.min(...values);
  const max = Math.max(...values);
  const range = max - min;
  return { n: values.map((v) => (range === 0 ? 0.5 : (v - min) / range)), flat: range === 0 };
}

/**
 * Scores the endpoints `set` by normalised |headroom|. A dimension without an SLO uses the
 * predicted latency itself as the distance and always prefers lower predictions.
 */
function scoreSet(
  p: LatencyScorerParameters,
  request: SchedulingRequest,
  set: readonly number[],
  preds: readonly (LatencyPrediction | undefined)[],
  strategy: 'least' | 'most',
  out: Float64Array,
): void {
  const withPred = set.filter((i) => preds[i] !== undefined);
  const hT = withPred.map((i) => { const x = preds[i] as LatencyPrediction; return request.sloTtftMs === undefined ? x.ttftMs : Math.abs(request.sloTtftMs - x.ttftMs); });
  const hP = withPred.map((i) => { const x = preds[i] as LatencyPrediction; return request.sloTpotMs === undefined ? x.tpotMs : Math.abs(request.sloTpotMs - x.tpotMs); });
  const nT = withPred.length === 0 ? { n: [], flat: true } : normalise(hT);
  const nP = withPred.length === 0 ? { n: [], flat: true } : normalise(hP);
  const alpha = nT.flat ? 0 : p.ttftWeight;
  const beta = nP.flat ? 0 : p.tpotWeight;
  // Without an SLO a larger value is worse in both strategies, so `most` flips that dimension.
  const flipT = strategy === 'most' && request.sloTtftMs === undefined;
  const flipP = strategy === 'most' && request.sloTpotMs === undefined;
  // An endpoint without a prediction sits in the middle (c = 0.5) under either strategy.
  for (const i of set) out[i] = (Math.floor(0.5 * 100) + 1) / 100;
  withPred.forEach((i, k) => {
    const t = nT.n[k] ?? 0.5;
    const q = nP.n[k] ?? 0.5;
    const c = alpha * (flipT ? 1 - t : t) + beta * (flipP ? 1 - q : q);
    out[i] = strategy === 'least' ? (Math.floor((1 - c) * 100) + 1) / 100 : (Math.floor(c * 100) + 1) / 100;
  });
}

/**
 * `latency-scorer`: SLO-aware scoring from predicted TTFT/TPOT (the `predicted-latency`
 * attribute) against the request's `x-llm-d-slo-ttft-ms` / `x-llm-d-slo-tpot-ms`. See
 * docs/scheduling.md for the full rules: endpoints with non-negative headroom (or no prediction)
 * are scored by normalised |headroom| with `least`/`most`; if none qualifies, idle endpoints win,
 * else the least-bad negative tier scored with `least`. Without any prediction it falls back to a
 * composite of free KV cache, relative queue length and prefix-match fraction.
 * @public
 * @category Built-in plugins
 */
export const latencyScorerPlugin = definePlugin({
  type: 'latency-scorer',
  description: 'Predicted TTFT/TPOT headroom against the request SLOs.',
  consumes: CONSUMES,
  notActedOn: { latencyPredictionInfoProducerName: NotActedOnReasons.latencyPredictionProducer, prefixMatchInfoProducerName: 'the composite fallback reads the one prefix match of the request' },
  parameters: latencyScorerParametersSchema,
  create: (p, ctx) =>
    arrayScorer('latency-scorer', ctx.name, (_c, request, endpoints, out) => {
      const predMap = request.attributes.get(Attributes.predictedLatency);
      if (predMap === undefined || predMap.size === 0) {
        composite(p, request, endpoints, out);
        return;
      }
      const preds = endpoints.map((e) => predMap.get(e.id));
      const tiers = preds.map((x): Tier => {
        if (x === undefined) return Tier.None;
        const tOk = withinSlo(request.sloTtftMs, x.ttftMs);
        const pOk = withinSlo(request.sloTpotMs, x.tpotMs);
        return tOk && pOk ? Tier.Positive : tOk ? Tier.TpotNegative : pOk ? Tier.TtftNegative : Tier.BothNegative;
      });
      out.fill(0, 0, endpoints.length);
      const indices = (pred: (t: Tier, i: number) => boolean): number[] => tiers.flatMap((t, i) => (pred(t, i) ? [i] : []));
      const positive = indices((t) => t === Tier.Positive || t === Tier.None);
      if (positive.length > 0) {
        scoreSet(p, request, positive, preds, p.headroomSelectionStrategy, out);
        return;
      }
      const idle = indices((_t, i) => (endpoints[i] as Endpoint).inFlightRequests === 0);
      if (idle.length > 0) {
        for (const i of idle) out[i] = 1;
        return;
      }
      for (const tier of [Tier.TpotNegative, Tier.TtftNegative, Tier.BothNegative]) {
        const bucket = indices((t) => t === tier);
        if (bucket.length > 0) {
          scoreSet(p, request, bucket, preds, 'least', out);
          return;
        }
      }
    }, { consumes: CONSUMES }),
});
