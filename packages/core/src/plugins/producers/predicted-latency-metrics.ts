import type { Registry } from 'prom-client';
import { registerDeprecatedTwin, sameLabels } from '../../observability/deprecated-twin.js';
import { FastCounter, FastGauge, FastHistogram, type FastCounterChild, type FastGaugeChild, type FastHistogramChild } from '../../observability/fast-metrics.js';

// llm-d's buckets (dataproducer/predictedlatency/metrics.go), so dashboards' quantiles read the same.
const LATENCY_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];
const TPOT_BUCKETS = [0.0005, 0.00205, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.125, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 1.5, 2, 3, 4.5, 6, 12, 18, 24, 30, 36, 48, 60, 90, 120, 180, 270, 360];
const PREDICTION_DURATION_BUCKETS = [0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5];

type Labels = 'plugin_name' | 'plugin_type' | 'model_name' | 'target_model_name';
type ModelLabels = 'model_name' | 'target_model_name';
const LABELS: readonly Labels[] = ['plugin_name', 'plugin_type', 'model_name', 'target_model_name'];
const TWIN = sameLabels('model_name', 'target_model_name');

/** The values `llm_d_epp_inference_request_metric{type}` takes. */
type GaugeType = 'ttft' | 'predicted_ttft' | 'ttft_prediction_duration' | 'ttft_slo_violation' | 'tpot' | 'predicted_tpot' | 'tpot_prediction_duration' | 'tpot_slo_violation';

interface Families {
  readonly gauge: FastGauge<Labels | 'type'>;
  readonly predictedTtft: FastHistogram<Labels>;
  readonly ttftPredictionDuration: FastHistogram<Labels>;
  readonly predictedTpot: FastHistogram<Labels>;
  readonly tpotPredictionDuration: FastHistogram<Labels>;
  readonly sloViolation: FastCounter<Labels | 'type'>;
  /** llm-d's twin-only families of the actual latencies (no current family: use `request_ttft_seconds`). */
  readonly actualTtft: FastHistogram<ModelLabels>;
  readonly actualTpot: FastHistogram<ModelLabels>;
}

/**
 * The series of one (model, target model) pair, each resolved on first use: a series appears once
 * something was recorded into it, not as a 0 beforehand.
 */
class ModelSeries {
  readonly #gauges = new Map<GaugeType, FastGaugeChild>();
  #predictedTtft: FastHistogramChild | undefined;
  #predictedTpot: FastHistogramChild | undefined;
  #ttftDuration: FastHistogramChild | undefined;
  #tpotDuration: FastHistogramChild | undefined;
  #ttftViolations: FastCounterChild | undefined;
  #tpotViolations: FastCounterChild | undefined;
  #actualTtft: FastHistogramChild | undefined;
  #actualTpot: FastHistogramChild | undefined;

  constructor(private readonly f: Families, private readonly l: readonly [string, string, string, string]) {}

  gauge(type: GaugeType): FastGaugeChild {
    let g = this.#gauges.get(type);
    if (g === undefined) this.#gauges.set(type, (g = this.f.gauge.labels(...this.l, type)));
    return g;
  }

  predicted(kind: Kind): FastHistogramChild {
    return kind === 'ttft' ? (this.#predictedTtft ??= this.f.predictedTtft.labels(...this.l)) : (this.#predictedTpot ??= this.f.predictedTpot.labels(...this.l));
  }

  predictionDuration(kind: Kind): FastHistogramChild {
    return kind === 'ttft' ? (this.#ttftDuration ??= this.f.ttftPredictionDuration.labels(...this.l)) : (this.#tpotDuration ??= this.f.tpotPredictionDuration.labels(...this.l));
  }

  violations(kind: Kind): FastCounterChild {
    return kind === 'ttft' ? (this.#ttftViolations ??= this.f.sloViolation.labels(...this.l, 'ttft')) : (this.#tpotViolations ??= this.f.sloViolation.labels(...this.l, 'tpot'));
  }

  actual(kind: Kind): FastHistogramChild {
    const [, , model, target] = this.l;
    return kind === 'ttft' ? (this.#actualTtft ??= this.f.actualTtft.labels(model, target)) : (this.#actualTpot ??= this.f.actualTpot.labels(model, target));
  }
}

type Kind = 'ttft' | 'tpot';

/** (model, target model) pairs whose series are kept resolved (the families' own series cap is 1,000). */
const MAX_CACHED_PAIRS = 1000;

const KINDS: readonly Kind[] = ['ttft', 'tpot'];

/** The families of `registry`, registered (with their deprecated twins) on first use: several pickers may share one registry. */
function familiesOf(registry: Registry): Families {
  const existing = registry.getSingleMetric('llm_d_epp_inference_request_metric') as unknown as FastGauge<Labels | 'type'> | undefined;
  const registers = [registry];
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: readonly number[]): FastHistogram<L> =>
    (registry.getSingleMetric(name) as unknown as FastHistogram<L> | undefined) ?? new FastHistogram<L>({ name, help, labelNames: [...labelNames], buckets, registers });
  const f: Families = {
    gauge: existing ?? new FastGauge<Labels | 'type'>({ name: 'llm_d_epp_inference_request_metric', help: 'Last actual and predicted TTFT/TPOT (seconds), prediction duration and SLO violation (0/1) of a request, by type.', labelNames: [...LABELS, 'type'], registers }),
    predictedTtft: histogram('llm_d_epp_request_predicted_ttft_seconds', 'Predicted TTFT of the endpoint that served the request.', LABELS, LATENCY_BUCKETS),
    ttftPredictionDuration: histogram('llm_d_epp_request_ttft_prediction_duration_seconds', 'Duration of one prediction pass over the candidates.', LABELS, PREDICTION_DURATION_BUCKETS),
    predictedTpot: histogram('llm_d_epp_request_predicted_tpot_seconds', 'Predicted TPOT of the endpoint that served the request.', LABELS, TPOT_BUCKETS),
    tpotPredictionDuration: histogram('llm_d_epp_request_tpot_prediction_duration_seconds', 'Duration of one prediction pass over the candidates.', LABELS, PREDICTION_DURATION_BUCKETS),
    sloViolation: (registry.getSingleMetric('llm_d_epp_request_slo_violation_total') as unknown as FastCounter<Labels | 'type'> | undefined)
      ?? new FastCounter<Labels | 'type'>({ name: 'llm_d_epp_request_slo_violation_total', help: 'Requests whose actual TTFT or TPOT exceeded the SLO of their header, by type.', labelNames: [...LABELS, 'type'], registers }),
    actualTtft: histogram('inference_objective_request_ttft_seconds', '[Deprecated: Use llm_d_epp_request_ttft_seconds] Actual TTFT seen by predicted-latency-producer.', ['model_name', 'target_model_name'], LATENCY_BUCKETS),
    actualTpot: histogram('inference_objective_request_tpot_seconds', '[Deprecated: Use llm_d_epp_request_streaming_tpot_seconds] Actual mean TPOT seen by predicted-latency-producer.', ['model_name', 'target_model_name'], TPOT_BUCKETS),
  };
  if (existing === undefined) {
    registerDeprecatedTwin(registry, 'inference_objective_inference_request_metric', f.gauge, 'llm_d_epp_inference_request_metric', [...TWIN, ['type', 'type']]);
    registerDeprecatedTwin(registry, 'inference_objective_request_predicted_ttft_seconds', f.predictedTtft, f.predictedTtft.name, TWIN);
    registerDeprecatedTwin(registry, 'inference_objective_request_ttft_prediction_duration_seconds', f.ttftPredictionDuration, f.ttftPredictionDuration.name, TWIN);
    registerDeprecatedTwin(registry, 'inference_objective_request_predicted_tpot_seconds', f.predictedTpot, f.predictedTpot.name, TWIN);
    registerDeprecatedTwin(registry, 'inference_objective_request_tpot_prediction_duration_seconds', f.tpotPredictionDuration, f.tpotPredictionDuration.name, TWIN);
    registerDeprecatedTwin(registry, 'inference_objective_request_slo_violation_total', f.sloViolation, f.sloViolation.name, [...TWIN, ['type', 'type']]);
  }
  return f;
}

/**
 * llm-d's predicted-latency families (catalogue §4.9) of one `predicted-latency-producer`
 * instance, recorded at llm-d's moments: the prediction pass's duration when it runs, the actual
 * and predicted TTFT at the first response byte, the actual and predicted TPOT at the end, and an
 * SLO violation when the actual exceeds the request's SLO header. Series are cached per
 * (model, target model) pair. Unlike llm-d (its quirk 8), the prediction-duration families carry
 * the incoming model as `model_name` and the rewritten one as `target_model_name`, as every other
 * family does.
 * @internal
 */
export class PredictedLatencyMetrics {
  readonly #f: Families;
  readonly #byModel = new Map<string, Map<string, ModelSeries>>();
  #cached = 0;

  constructor(registry: Registry, private readonly pluginType: string, private readonly pluginName: string) {
    this.#f = familiesOf(registry);
  }

  #series(model: string, target: string): ModelSeries {
    const byTarget = this.#byModel.get(model);
    const cached = byTarget?.get(target);
    if (cached !== undefined) return cached;
    const s = new ModelSeries(this.#f, [this.pluginName, this.pluginType, model, target]);
    // Model names come from clients: past the cap nothing more is kept here (not even an empty
    // map per new model), and the families record into their overflow series anyway.
    if (this.#cached < MAX_CACHED_PAIRS) {
      if (byTarget === undefined) this.#byModel.set(model, new Map([[target, s]]));
      else byTarget.set(target, s);
      this.#cached++;
    }
    return s;
  }

  /** One prediction pass took `seconds` (llm-d writes the same value to both duration families). */
  predictionDuration(model: string, target: string, seconds: number): void {
    const s = this.#series(model, target);
    for (const kind of KINDS) {
      s.predictionDuration(kind).observe(seconds);
      s.gauge(kind === 'ttft' ? 'ttft_prediction_duration' : 'tpot_prediction_duration').set(seconds);
    }
  }

  /** The first response byte: actual TTFT, the served endpoint's prediction and the SLO (all ms; 0/undefined = none). */
  ttft(model: string, target: string, actualMs: number, predictedMs: number | undefined, sloMs: number | undefined): void {
    this.#record('ttft', model, target, actualMs, predictedMs, sloMs);
  }

  /** The end of the response: actual mean TPOT, the served endpoint's prediction and the SLO (all ms). */
  tpot(model: string, target: string, actualMs: number, predictedMs: number | undefined, sloMs: number | undefined): void {
    this.#record('tpot', model, target, actualMs, predictedMs, sloMs);
  }

  #record(kind: Kind, model: string, target: string, actualMs: number, predictedMs: number | undefined, sloMs: number | undefined): void {
    if (!(actualMs > 0)) return;
    const s = this.#series(model, target);
    s.gauge(kind).set(actualMs / 1000);
    s.actual(kind).observe(actualMs / 1000);
    if (predictedMs !== undefined && predictedMs > 0) {
      s.gauge(kind === 'ttft' ? 'predicted_ttft' : 'predicted_tpot').set(predictedMs / 1000);
      s.predicted(kind).observe(predictedMs / 1000);
    }
    if (sloMs !== undefined && sloMs > 0) {
      const violated = actualMs > sloMs;
      s.gauge(kind === 'ttft' ? 'ttft_slo_violation' : 'tpot_slo_violation').set(violated ? 1 : 0);
      // Resolved on a check, so the counter reads 0 for requests that had an SLO and met it.
      const counter = s.violations(kind);
      if (violated) counter.inc();
    }
  }
}
