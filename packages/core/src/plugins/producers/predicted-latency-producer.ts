import { z } from 'zod';
import type { Clock } from '../../clock/clock.js';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes, type LatencyPrediction } from '../../scheduling/attributes.js';
import type { DataProducer, RequestLifecycle } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';
import type { Registry } from 'prom-client';
import { createEwmaLatencyPredictor, type LatencyPredictor } from './latency-predictor.js';
import { PredictedLatencyMetrics } from './predicted-latency-metrics.js';

/**
 * Options of {@link createPredictedLatencyProducer}.
 * @public
 * @category Built-in plugins
 */
export interface PredictedLatencyProducerOptions {
  /** Instance name (default `predicted-latency-producer`). */
  readonly name?: string;
  /** Time source for TPOT measurement. */
  readonly clock: Clock;
  /** The model (default: {@link createEwmaLatencyPredictor}). */
  readonly predictor?: LatencyPredictor;
  /**
   * Registry for llm-d's predicted-latency families (`llm_d_epp_inference_request_metric`,
   * `llm_d_epp_request_predicted_ttft_seconds`, … and their deprecated twins). Undefined: record none.
   */
  readonly metrics?: Registry | undefined;
}

interface InFlight {
  endpoint: Endpoint;
  firstByteAt: number | undefined;
  completionTokens: number | undefined;
  /** The served endpoint's predicted TPOT (ms) at scheduling, for the metrics. */
  predictedTpotMs: number | undefined;
}

/**
 * Creates the producer of the `predicted-latency` attribute: asks `predictor` for every candidate
 * before scheduling, and feeds it TTFT (first byte − arrival) and TPOT ((end − first byte) /
 * (output tokens − 1)) from the decision lifecycle. With `metrics`, records llm-d's
 * predicted-latency families at the same moments llm-d does: the prediction pass's duration,
 * actual vs predicted TTFT at the first response byte, actual vs predicted TPOT at the end, and
 * SLO violations against `x-llm-d-slo-ttft-ms` / `x-llm-d-slo-tpot-ms`.
 * @public
 * @category Built-in plugins
 */
export function createPredictedLatencyProducer(options: PredictedLatencyProducerOptions): DataProducer & RequestLifecycle {
  const predictor = options.predictor ?? createEwmaLatencyPredictor();
  const clock = options.clock;
  const live = new WeakMap<SchedulingRequest, InFlight>();
  const name = options.name ?? 'predicted-latency-producer';
  const metrics = options.metrics === undefined ? undefined : new PredictedLatencyMetrics(options.metrics, 'predicted-latency-producer', name);
  const predictionOf = (request: SchedulingRequest, endpoint: Endpoint): LatencyPrediction | undefined => request.attributes.get(Attributes.predictedLatency)?.get(endpoint.id);
  return {
    type: 'predicted-latency-producer',
    name,
    produces: [Attributes.predictedLatency.name],
    consumes: [],
    produce(_c, request, endpoints) {
      const startedAt = metrics === undefined ? 0 : clock.now();
      let map: Map<string, LatencyPrediction> | undefined;
      for (const e of endpoints) {
        const p = predictor.predict(e, request);
        if (p !== undefined) (map ??= new Map()).set(e.id, p);
      }
      if (map !== undefined) request.attributes.set(Attributes.predictedLatency, map);
      if (metrics !== undefined && endpoints.length > 0) metrics.predictionDuration(request.request.model, request.targetModel, (clock.now() - startedAt) / 1000);
    },
    onResponseStart(request, info) {
      const ttftMs = info.at - request.receivedAt;
      const predicted = metrics === undefined ? undefined : predictionOf(request, info.endpoint);
      live.set(request, { endpoint: info.endpoint, firstByteAt: info.at, completionTokens: undefined, predictedTpotMs: predicted?.tpotMs });
      predictor.observe(info.endpoint, request, { ttftMs });
      metrics?.ttft(request.request.model, request.targetModel, ttftMs, predicted?.ttftMs, request.sloTtftMs);
    },
    onUsage(request, usage) {
      const s = live.get(request);
      if (s !== undefined) s.completionTokens = usage.completionTokens;
    },
    onComplete(request, outcome) {
      const s = live.get(request);
      live.delete(request);
      if (s === undefined || outcome.kind !== 'success') return;
      const tokens = s.completionTokens ?? (outcome.usage === undefined ? undefined : outcome.usage.completionTokens);
      if (tokens === undefined || tokens < 2 || s.firstByteAt === undefined) return;
      const tpotMs = (clock.now() - s.firstByteAt) / (tokens - 1);
      predictor.observe(s.endpoint, request, { tpotMs });
      metrics?.tpot(request.request.model, request.targetModel, tpotMs, s.predictedTpotMs, request.sloTpotMs);
    },
  };
}

/**
 * `predicted-latency-producer`: per-endpoint TTFT/TPOT predictions for `latency-scorer`, learned
 * online from the requests Switchyard routes (EWMA with weight `alpha`). Auto-created when
 * `latency-scorer` is configured.
 * @public
 * @category Built-in plugins
 */
export const predictedLatencyProducerPlugin = definePlugin({
  type: 'predicted-latency-producer',
  description: 'Online per-endpoint TTFT/TPOT predictions (EWMA of observations).',
  produces: [Attributes.predictedLatency.name],
  defaultProducerFor: [Attributes.predictedLatency.name],
  // llm-d's settings of its predictor sidecar client: predictions here are learned in-process.
  notActedOn: Object.fromEntries(
    ['sloBufferFactor', 'contextTTL', 'streamingMode', 'endpointRoleLabel', 'predictInProduce', 'prefixMatchInfoProducerName', 'inFlightLoadProducerName', 'useEncoderCacheFeatures', 'encoderCacheMatchInfoProducerName', 'samplingMean', 'maxDecodeTokenSamplesForPrediction'].map((k) => [
      k,
      'predictions are learned in-process per endpoint (EWMA with weight alpha), not by llm-d\'s predictor sidecars',
    ]),
  ),
  parameters: z.strictObject({
    /** Weight of a new observation, in (0, 1]. */
    alpha: z.number().gt(0).max(1).default(0.2),
  }),
  create: (p, ctx) => createPredictedLatencyProducer({ name: ctx.name, clock: ctx.clock, predictor: createEwmaLatencyPredictor({ alpha: p.alpha }), metrics: ctx.metrics }),
});
