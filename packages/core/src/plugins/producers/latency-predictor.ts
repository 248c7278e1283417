import type { Endpoint } from '../../endpoints/types.js';
import type { LatencyPrediction } from '../../scheduling/attributes.js';
import type { SchedulingRequest } from '../../scheduling/request.js';

/**
 * One observed latency sample of a finished (or streaming) request.
 * @public
 * @category Built-in plugins
 */
export interface LatencySample {
  /** Observed time to first token, ms (when the first byte was seen). */
  readonly ttftMs?: number | undefined;
  /** Observed mean time per output token after the first, ms (when known). */
  readonly tpotMs?: number | undefined;
}

/**
 * Predicts TTFT/TPOT of a request on an endpoint and learns from observations. The built-in
 * {@link createEwmaLatencyPredictor} is a simple baseline; plug a better model into
 * `createPredictedLatencyProducer({ predictor })`.
 * @public
 * @category Built-in plugins
 */
export interface LatencyPredictor {
  /** Prediction for `request` on `endpoint`, or undefined when the predictor knows nothing yet. */
  predict(endpoint: Endpoint, request: SchedulingRequest): LatencyPrediction | undefined;
  /** Learns from a sample observed on `endpoint`. */
  observe(endpoint: Endpoint, request: SchedulingRequest, sample: LatencySample): void;
}

/**
 * Options of {@link createEwmaLatencyPredictor}.
 * @public
 * @category Built-in plugins
 */
export interface EwmaLatencyPredictorOptions {
  /** Weight of a new sample in the moving average, in (0, 1]. Default 0.2. */
  readonly alpha?: number;
}

interface EndpointStats {
  ttft: number | undefined;
  tpot: number | undefined;
}

/**
 * A per-endpoint exponentially weighted moving average of observed TTFT and TPOT. An endpoint
 * predicts once it has at least one sample of each. Its estimate carries the load at the time of
 * the samples, so it follows load changes with a lag of about 1/alpha requests.
 * @public
 * @category Built-in plugins
 */
export function createEwmaLatencyPredictor(options: EwmaLatencyPredictorOptions = {}): LatencyPredictor {
  const alpha = options.alpha ?? 0.2;
  if (!(alpha > 0 && alpha <= 1)) throw new RangeError(`Expected \`alpha\` to be in (0, 1], got \`${alpha}\``);
  const stats = new Map<string, EndpointStats>();
  const mix = (old: number | undefined, v: number): number => (old === undefined ? v : old + alpha * (v - old));
  return {
    predict(endpoint) {
      const s = stats.get(endpoint.id);
      if (s?.ttft === undefined || s.tpot === undefined) return undefined;
      return { ttftMs: s.ttft, tpotMs: s.tpot };
    },
    observe(endpoint, _request, sample) {
      let s = stats.get(endpoint.id);
      if (s === undefined) {
        s = { ttft: undefined, tpot: undefined };
        stats.set(endpoint.id, s);
      }
      if (sample.ttftMs !== undefined && Number.isFinite(sample.ttftMs) && sample.ttftMs >= 0) s.ttft = mix(s.ttft, sample.ttftMs);
      if (sample.tpotMs !== undefined && Number.isFinite(sample.tpotMs) && sample.tpotMs >= 0) s.tpot = mix(s.tpot, sample.tpotMs);
    },
  };
}
