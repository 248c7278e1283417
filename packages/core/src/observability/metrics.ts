import { Registry } from 'prom-client';
import type { ExtensionPoint, PluginObserver } from '../scheduling/observer.js';
import type { Plugin } from '../scheduling/plugins.js';
import { FastCounter, FastGauge, FastHistogram, type FastHistogramChild } from './fast-metrics.js';
import { RequestSeriesCache, type RequestSeries } from './request-series.js';
import { PoolGauges } from './pool-gauges.js';
import { registerDeprecatedTwin, sameLabels, type TwinLabels } from './deprecated-twin.js';
import type { Clock } from '../clock/clock.js';
import type { EndpointPool } from '../endpoints/pool.js';
import type { FastMetricValues } from './fast-metric.js';

/**
 * Label names of the per-request metrics. @public
 * @category Metrics of our own
 */
export type RequestLabel = 'model_name' | 'target_model_name' | 'fairness_id' | 'priority';

/**
 * Label names of `disagg_decision_total` / `pd_decision_total`. @public
 * @category Metrics of our own
 */
export type DecisionLabel = 'plugin_name' | 'plugin_type' | 'model_name' | 'decision_type';

/**
 * Options of {@link SchedulerMetrics}.
 * @public
 * @category Metrics of our own
 */
export interface SchedulerMetricsOptions {
  /** Registry to register in (default: a new one; merge it into yours with `Registry.merge`). */
  readonly registry?: Registry;
  /** Metric name prefix (default `llm_d_epp_`, so llm-d dashboards keep working). */
  readonly prefix?: string;
  /** Time one scheduling cycle in this many for `plugin_duration_seconds` (default 1 = all). */
  readonly pluginSampleEvery?: number;
  /**
   * Most label combinations kept per metric (default 1,000); further ones are recorded under
   * `__overflow__` label values, so client-chosen model names or fairness ids cannot grow memory
   * without limit.
   */
  readonly maxSeries?: number | undefined;
  /**
   * Maps a request's model name (and target model name) to its label value, e.g. to label only
   * models the gateway knows and count client-invented names under one value, so unauthenticated
   * clients cannot fill the series cap. @defaultValue the name itself
   */
  readonly modelLabel?: ((model: string) => string) | undefined;
  /**
   * Also expose llm-d's deprecated twins (`inference_objective_request_total`,
   * `inference_pool_ready_pods`, `inference_extension_scheduler_attempts_total`, …), which llm-d
   * still emits next to the `llm_d_epp_*` families. They are computed from the current families
   * when scraped, so recording costs nothing extra. Only with the default prefix.
   * @defaultValue true
   */
  readonly deprecatedTwins?: boolean | undefined;
  /** Labels of `llm_d_epp_info` (default empty strings). */
  readonly build?: { readonly commit?: string; readonly ref?: string } | undefined;
}

// Bucket boundaries are llm-d's (pkg/epp/metrics), so dashboards' quantiles read the same.
const LATENCY_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];
const TTFT_BUCKETS = LATENCY_BUCKETS.slice(0, 24);
// 32778 (not 32768) is llm-d's own typo, kept so bucket series line up.
const TOKEN_BUCKETS = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32778, 65536, 131072, 262144, 524288, 1048576];
const OUTPUT_TOKEN_BUCKETS = TOKEN_BUCKETS.slice(0, 12);
const REQUEST_SIZE_BUCKETS = Array.from({ length: 25 }, (_, i) => 64 * 2 ** i);
const RESPONSE_SIZE_BUCKETS = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32778, 65536];
const NTPOT_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10];
const TPOT_BUCKETS = [0.0005, 0.00205, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.125, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 2];
const ITL_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2];
const REQUEST_PROCESSING_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.015, 0.025, 0.04, 0.06, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const RESPONSE_PROCESSING_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const SCHEDULER_BUCKETS = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1];

/**
 * The picker's own Prometheus metrics, under llm-d's `llm_d_epp_*` names: request totals and
 * errors, end-to-end request duration, running requests, input/output tokens, scheduler
 * end-to-end duration, per-plugin durations, ready endpoints and disaggregation decisions. Pass
 * one to `new EndpointPicker({ metrics })` (one instance may serve several pickers: give each
 * its `poolName` so `ready_endpoints` carries llm-d's `name` label); expose
 * `metrics.registry` (or merge it into yours). The metrics are {@link FastCounter}-style: a
 * request resolves its series with one Map lookup ({@link SchedulerMetrics.requestSeries}) and
 * records with field updates, instead of prom-client's per-call label hashing.
 * @public
 * @category Metrics of our own
 */
export class SchedulerMetrics {
  /** The registry holding these metrics. */
  readonly registry: Registry;
  /** `request_total`: requests received, by request labels. */
  readonly requestTotal: FastCounter<RequestLabel>;
  /** `request_error_total`: requests that failed, by request labels and `error_code`. */
  readonly requestErrorTotal: FastCounter<RequestLabel | 'error_code'>;
  /** `request_duration_seconds`: arrival to completion. */
  readonly requestDuration: FastHistogram<RequestLabel>;
  /** `request_running`: requests scheduled and not yet complete. */
  readonly requestRunning: FastGauge<RequestLabel>;
  /** `request_input_tokens`: prompt tokens reported by the model server. */
  readonly inputTokens: FastHistogram<RequestLabel>;
  /** `request_output_tokens`: completion tokens reported by the model server. */
  readonly outputTokens: FastHistogram<RequestLabel>;
  /** `request_cached_tokens`: prompt tokens the engine served from its prefix cache (when reported). */
  readonly cachedTokens: FastHistogram<RequestLabel>;
  /** `request_size_bytes`: request body size, recorded with `request_total`. */
  readonly requestSize: FastHistogram<RequestLabel>;
  /** `response_size_bytes`: response body bytes from the model server, at completion. */
  readonly responseSize: FastHistogram<RequestLabel>;
  /** `request_ttft_seconds`: arrival to the first non-empty response body chunk, by `streaming`. */
  readonly ttft: FastHistogram<RequestLabel | 'streaming'>;
  /** `request_streaming_tpot_seconds`: streamed requests, (e2e − TTFT) / (completion tokens − 1). */
  readonly streamingTpot: FastHistogram<RequestLabel>;
  /** `request_streaming_itl_seconds`: streamed requests, time between consecutive response chunks. */
  readonly streamingItl: FastHistogram<RequestLabel>;
  /** `request_ntpot_seconds`: e2e duration / completion tokens, at completion. */
  readonly ntpot: FastHistogram<RequestLabel>;
  /** `request_processing_duration_seconds`: arrival to the decision (admission, queueing, scheduling). */
  readonly requestProcessing: FastHistogram;
  /**
   * `response_processing_duration_seconds`: the adapter's own response handling, at completion
   * (streamed: the sum of each chunk's handling; otherwise response headers to the end of the body).
   */
  readonly responseProcessing: FastHistogram;
  /**
   * `scheduler_attempts_total`: one per scheduling attempt; on success labelled with the primary
   * endpoint (`endpoint_name`, `namespace`, `port`), empty on failure.
   */
  readonly schedulerAttempts: FastCounter<'status' | 'target_model_name' | 'endpoint_name' | 'namespace' | 'port'>;
  /** `info{commit, build_ref}` = 1: the build serving the metrics. */
  readonly info: FastGauge<'commit' | 'build_ref'>;
  /** `scheduler_e2e_duration_seconds`: producers + profiles of one cycle. */
  readonly schedulerE2eDuration: FastHistogram;
  /** `plugin_duration_seconds`: one plugin call (sampled). */
  readonly pluginDuration: FastHistogram<'extension_point' | 'plugin_type' | 'plugin_name'>;
  /**
   * `ready_endpoints`: endpoints in the pool; unlabelled for a picker without `poolName`, else
   * one series per pool, labelled `name` as in llm-d.
   */
  readonly readyEndpoints: FastGauge<'name'>;
  /**
   * `disagg_decision_total{plugin_name,plugin_type,model_name,decision_type}`: which stages the
   * disaggregated decisions of a profile handler used (every handler but `pd-profile-handler`).
   */
  readonly disaggDecisionTotal: FastCounter<DecisionLabel>;
  /** `pd_decision_total`, the same for llm-d's deprecated `pd-profile-handler` (its own family there). */
  readonly pdDecisionTotal: FastCounter<DecisionLabel>;
  /** `model_rewrite_decisions_total{model_rewrite_name,model_name,target_model}`: body models an InferenceModelRewrite rule rewrote. */
  readonly modelRewriteDecisions: FastCounter<'model_rewrite_name' | 'model_name' | 'target_model'>;
  /**
   * `flow_control_stale_endpoints{detector}` (llm-d's name): candidates of the latest pick whose
   * metrics were missing or stale; `detector` is the picker's `poolName`, else `utilization-detector`.
   */
  readonly staleEndpoints: FastGauge<'detector'>;
  /** `datalayer_poll_errors_total{source_type}`: data-source polls that failed (refused, timed out, non-200). */
  readonly dataLayerPollErrors: FastCounter<'source_type'>;
  /** `datalayer_extract_errors_total{source_type,extractor_type}`: fetched pages whose metrics could not be read. */
  readonly dataLayerExtractErrors: FastCounter<'source_type' | 'extractor_type'>;
  /** The plugin timing observer the picker hands to its scheduler. */
  readonly observer: PluginObserver;
  readonly #poolGauges: PoolGauges;
  readonly #series: RequestSeriesCache;
  readonly #modelLabel: ((model: string) => string) | undefined;

  constructor(options: SchedulerMetricsOptions = {}) {
    const registry = options.registry ?? new Registry();
    const p = options.prefix ?? 'llm_d_epp_';
    const registers = [registry];
    const maxSeries = options.maxSeries;
    this.#modelLabel = options.modelLabel;
    const requestLabels: RequestLabel[] = ['model_name', 'target_model_name', 'fairness_id', 'priority'];
    this.registry = registry;
    this.requestTotal = new FastCounter({ name: `${p}request_total`, help: 'Inference requests received by the picker.', labelNames: requestLabels, registers, maxSeries });
    this.requestErrorTotal = new FastCounter({ name: `${p}request_error_total`, help: 'Inference requests that failed.', labelNames: [...requestLabels, 'error_code'], registers, maxSeries });
    this.requestDuration = new FastHistogram({ name: `${p}request_duration_seconds`, help: 'Request duration from arrival to completion.', labelNames: requestLabels, buckets: LATENCY_BUCKETS, registers, maxSeries });
    this.requestRunning = new FastGauge({ name: `${p}request_running`, help: 'Requests scheduled and not yet complete.', labelNames: requestLabels, registers, maxSeries });
    this.inputTokens = new FastHistogram({ name: `${p}request_input_tokens`, help: 'Prompt tokens per request.', labelNames: requestLabels, buckets: TOKEN_BUCKETS, registers, maxSeries });
    this.outputTokens = new FastHistogram({ name: `${p}request_output_tokens`, help: 'Completion tokens per request.', labelNames: requestLabels, buckets: OUTPUT_TOKEN_BUCKETS, registers, maxSeries });
    this.cachedTokens = new FastHistogram({ name: `${p}request_cached_tokens`, help: "Prompt tokens served from the engine's prefix cache, per request (when the model server reports them).", labelNames: requestLabels, buckets: TOKEN_BUCKETS, registers, maxSeries });
    this.requestSize = new FastHistogram({ name: `${p}request_size_bytes`, help: 'Request body size in bytes.', labelNames: requestLabels, buckets: REQUEST_SIZE_BUCKETS, registers, maxSeries });
    this.responseSize = new FastHistogram({ name: `${p}response_size_bytes`, help: 'Response body size in bytes.', labelNames: requestLabels, buckets: RESPONSE_SIZE_BUCKETS, registers, maxSeries });
    this.ttft = new FastHistogram({ name: `${p}request_ttft_seconds`, help: 'Time from request arrival to the first non-empty response body chunk (streaming: whether the request asked for a stream).', labelNames: [...requestLabels, 'streaming'], buckets: TTFT_BUCKETS, registers, maxSeries });
    this.streamingTpot = new FastHistogram({ name: `${p}request_streaming_tpot_seconds`, help: 'Time per output token after the first, of streamed requests with more than one completion token.', labelNames: requestLabels, buckets: TPOT_BUCKETS, registers, maxSeries });
    this.streamingItl = new FastHistogram({ name: `${p}request_streaming_itl_seconds`, help: 'Time between consecutive non-empty response chunks of streamed requests.', labelNames: requestLabels, buckets: ITL_BUCKETS, registers, maxSeries });
    this.ntpot = new FastHistogram({ name: `${p}request_ntpot_seconds`, help: 'End-to-end request duration divided by completion tokens.', labelNames: requestLabels, buckets: NTPOT_BUCKETS, registers, maxSeries });
    this.requestProcessing = new FastHistogram({ name: `${p}request_processing_duration_seconds`, help: 'Time from request arrival to its scheduling decision (admission, queueing and scheduling).', buckets: REQUEST_PROCESSING_BUCKETS, registers, maxSeries });
    this.responseProcessing = new FastHistogram({ name: `${p}response_processing_duration_seconds`, help: "Time the adapter spent on a request's response: the sum of each chunk's handling when streamed, response headers to the end of the body otherwise.", buckets: RESPONSE_PROCESSING_BUCKETS, registers, maxSeries });
    this.schedulerAttempts = new FastCounter({
      name: `${p}scheduler_attempts_total`,
      help: 'Scheduling attempts by status (success, failure); on success labelled with the primary endpoint.',
      labelNames: ['status', 'target_model_name', 'endpoint_name', 'namespace', 'port'],
      registers,
      maxSeries,
    });
    this.info = new FastGauge({ name: `${p}info`, help: 'Build of the serving Switchyard (value 1).', labelNames: ['commit', 'build_ref'], registers });
    this.info.labels(options.build?.commit ?? '', options.build?.ref ?? '').set(1);
    const twins = p === 'llm_d_epp_' && options.deprecatedTwins !== false;
    this.#poolGauges = new PoolGauges(registry, p, twins);
    this.schedulerE2eDuration = new FastHistogram({ name: `${p}scheduler_e2e_duration_seconds`, help: 'Scheduling cycle duration (producers and profiles).', buckets: SCHEDULER_BUCKETS, registers, maxSeries });
    this.pluginDuration = new FastHistogram({
      name: `${p}plugin_duration_seconds`,
      help: 'Duration of one plugin call (sampled).',
      labelNames: ['extension_point', 'plugin_type', 'plugin_name'],
      buckets: SCHEDULER_BUCKETS,
      registers,
      maxSeries,
    });
    this.readyEndpoints = new FastGauge({ name: `${p}ready_endpoints`, help: 'Endpoints ready to receive requests.', labelNames: ['name'], registers, maxSeries });
    this.staleEndpoints = new FastGauge({ name: `${p}flow_control_stale_endpoints`, help: 'Candidates of the latest pick whose metrics were missing or older than the staleness threshold.', labelNames: ['detector'], registers, maxSeries });
    const decisionLabels: DecisionLabel[] = ['plugin_name', 'plugin_type', 'model_name', 'decision_type'];
    this.disaggDecisionTotal = new FastCounter({ name: `${p}disagg_decision_total`, help: 'Disaggregated scheduling decisions by stages used.', labelNames: decisionLabels, registers, maxSeries });
    this.modelRewriteDecisions = new FastCounter({ name: `${p}model_rewrite_decisions_total`, help: 'Requests whose model an InferenceModelRewrite rule rewrote, by rewrite and models.', labelNames: ['model_rewrite_name', 'model_name', 'target_model'], registers, maxSeries });
    this.pdDecisionTotal = new FastCounter({ name: `${p}pd_decision_total`, help: 'Decisions of pd-profile-handler by stages used.', labelNames: decisionLabels, registers, maxSeries });
    this.dataLayerPollErrors = new FastCounter({ name: `${p}datalayer_poll_errors_total`, help: 'Data-source polls that failed (connection refused, timeout, non-200 status).', labelNames: ['source_type'], registers, maxSeries });
    this.dataLayerExtractErrors = new FastCounter({ name: `${p}datalayer_extract_errors_total`, help: 'Data-source responses whose metrics an extractor could not read.', labelNames: ['source_type', 'extractor_type'], registers, maxSeries });
    if (twins) this.#registerTwins(registry);
    const pluginDuration = this.pluginDuration;
    // Plugins are long-lived objects: their series are found by identity, not by joined names.
    const byPlugin = new WeakMap<Plugin, Map<ExtensionPoint, FastHistogramChild>>();
    this.observer = {
      sampleEvery: Math.max(1, Math.floor(options.pluginSampleEvery ?? 1)),
      record(point: ExtensionPoint, plugin: Plugin, ms: number) {
        let points = byPlugin.get(plugin);
        if (points === undefined) byPlugin.set(plugin, (points = new Map<ExtensionPoint, FastHistogramChild>()));
        let child = points.get(point);
        if (child === undefined) points.set(point, (child = pluginDuration.labels(point, plugin.type, plugin.name)));
        child.observe(ms / 1000);
      },
    };
    const { requestTotal, requestRunning, requestDuration, inputTokens, outputTokens, cachedTokens, requestSize, responseSize, ttft, streamingTpot, streamingItl, ntpot } = this;
    this.#series = new RequestSeriesCache(Math.max(1, Math.floor(maxSeries ?? 1000)), (labels, key) => ({
      labels,
      total: requestTotal.labelsByKey(key, labels),
      running: requestRunning.labelsByKey(key, labels),
      duration: requestDuration.labelsByKey(key, labels),
      inputTokens: inputTokens.labelsByKey(key, labels),
      outputTokens: outputTokens.labelsByKey(key, labels),
      cachedTokens: cachedTokens.labelsByKey(key, labels),
      requestSize: requestSize.labelsByKey(key, labels),
      responseSize: responseSize.labelsByKey(key, labels),
      ttftStreaming: ttft.labelsByKey(`${key}\u0000true`, [...labels, 'true']),
      ttftUnary: ttft.labelsByKey(`${key}\u0000false`, [...labels, 'false']),
      streamingTpot: streamingTpot.labelsByKey(key, labels),
      streamingItl: streamingItl.labelsByKey(key, labels),
      ntpot: ntpot.labelsByKey(key, labels),
    }));
  }

  /** llm-d's deprecated names of these families, with their label names (catalogue §4.1, §4.3). */
  #registerTwins(registry: Registry): void {
    const model = sameLabels('model_name', 'target_model_name');
    const twins: readonly (readonly [string, { readonly name: string; get(): Promise<FastMetricValues> }, TwinLabels])[] = [
      ['inference_objective_request_total', this.requestTotal, sameLabels('model_name', 'target_model_name', 'priority')],
      ['inference_objective_request_error_total', this.requestErrorTotal, sameLabels('model_name', 'target_model_name', 'error_code')],
      ['inference_objective_request_duration_seconds', this.requestDuration, model],
      ['inference_objective_request_sizes', this.requestSize, model],
      ['inference_objective_response_sizes', this.responseSize, model],
      ['inference_objective_input_tokens', this.inputTokens, model],
      ['inference_objective_output_tokens', this.outputTokens, model],
      ['inference_objective_prompt_cached_tokens', this.cachedTokens, model],
      ['inference_objective_running_requests', this.requestRunning, sameLabels('model_name')],
      ['inference_objective_normalized_time_per_output_token_seconds', this.ntpot, model],
      ['inference_extension_scheduler_e2e_duration_seconds', this.schedulerE2eDuration, []],
      ['inference_extension_scheduler_attempts_total', this.schedulerAttempts, [['status', 'status'], ['target_model_name', 'target_model_name'], ['pod_name', 'endpoint_name'], ['namespace', 'namespace'], ['port', 'port']]],
      ['inference_extension_plugin_duration_seconds', this.pluginDuration, sameLabels('extension_point', 'plugin_type', 'plugin_name')],
      ['inference_extension_info', this.info, sameLabels('commit', 'build_ref')],
      ['inference_pool_ready_pods', this.readyEndpoints, sameLabels('name')],
      ['inference_extension_model_rewrite_decisions_total', this.modelRewriteDecisions, sameLabels('model_rewrite_name', 'model_name', 'target_model')],
      ['llm_d_inference_scheduler_disagg_decision_total', this.disaggDecisionTotal, sameLabels('model_name', 'decision_type')],
      ['llm_d_inference_scheduler_pd_decision_total', this.pdDecisionTotal, sameLabels('model_name', 'decision_type')],
      ['llm_d_inference_scheduler_datalayer_poll_errors_total', this.dataLayerPollErrors, sameLabels('source_type')],
      ['llm_d_inference_scheduler_datalayer_extract_errors_total', this.dataLayerExtractErrors, sameLabels('source_type', 'extractor_type')],
    ];
    for (const [name, source, labels] of twins) registerDeprecatedTwin(registry, name, source, source.name, labels);
  }

  /**
   * Summarises `pool` in the pool gauges (`average_*`, `std_dev_*`, `per_endpoint_queue_size`)
   * under the `name` label `poolName`, over endpoints whose metrics are at most `stalenessMs`
   * old; the values are computed when scraped. The picker calls this; returns the detach function.
   */
  watchPool(poolName: string, pool: EndpointPool, clock: Clock, stalenessMs: number): () => void {
    return this.#poolGauges.watch(poolName, pool, clock, stalenessMs);
  }

  /**
   * The bound per-request series of one label combination: one Map lookup per request instead
   * of one label hashing per metric call.
   */
  /**
   * Counts one disaggregated decision of `handler` for `model` (empty: `unknown`, as llm-d), in
   * `pd_decision_total` for `pd-profile-handler` and `disagg_decision_total` for the others.
   */
  recordDisaggDecision(handler: { readonly type: string; readonly name: string }, model: string, decisionType: string): void {
    const family = handler.type === 'pd-profile-handler' ? this.pdDecisionTotal : this.disaggDecisionTotal;
    family.labels(handler.name, handler.type, model === '' ? 'unknown' : this.modelLabelOf(model), decisionType).inc();
  }

  /** Counts one model rewrite by the rule of InferenceModelRewrite `rewriteName`. */
  recordModelRewrite(rewriteName: string, model: string, target: string): void {
    this.modelRewriteDecisions.labels(rewriteName, this.modelLabelOf(model), this.modelLabelOf(target)).inc();
  }

  /** The label value of a model name: the configured `modelLabel` bound (unknown names share one value), else the name. */
  modelLabelOf(model: string): string {
    const label = this.#modelLabel;
    return label === undefined ? model : label(model);
  }

  requestSeries(modelName: string, targetModelName: string, fairnessId: string, priority: string): RequestSeries {
    const label = this.#modelLabel;
    if (label !== undefined) return this.#series.get(label(modelName), label(targetModelName), fairnessId, priority);
    return this.#series.get(modelName, targetModelName, fairnessId, priority);
  }
}
