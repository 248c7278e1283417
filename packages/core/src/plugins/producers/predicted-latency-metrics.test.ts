import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ManualClock, parsePrometheusText, type LatencyPredictor, type MetricFamily } from '@switchyard/core';
import { cycleContext, endpoints, instantiate, schedulingRequest } from '../../testing/index.js';
import { createPredictedLatencyProducer, predictedLatencyProducerPlugin } from './predicted-latency-producer.js';

/** A predictor with fixed answers that takes `costMs` of clock time per endpoint, so the pass's duration is known. */
function fixedPredictor(clock: ManualClock, costMs: number): LatencyPredictor {
  return {
    predict() {
      clock.advance(costMs);
      return { ttftMs: 80, tpotMs: 15 };
    },
    observe() {},
  };
}

async function families(registry: Registry): Promise<Map<string, MetricFamily>> {
  return new Map(parsePrometheusText(await registry.metrics()).map((f) => [f.name, f]));
}

function value(f: MetricFamily | undefined, labels: Record<string, string>, metricName = f?.name): number | undefined {
  return f?.samples.find((s) => s.name === metricName && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

describe('predicted-latency-producer metrics', () => {
  const MODEL = { plugin_name: 'pl', plugin_type: 'predicted-latency-producer', model_name: 'm1', target_model_name: 'lora-a' };

  /** One request: scheduled over two endpoints, first byte after `ttft` ms, `tokens` output tokens after `total` ms. */
  async function run(slo: { ttft?: number; tpot?: number }, ttft: number, total: number, tokens: number) {
    const clock = new ManualClock();
    const registry = new Registry();
    const producer = createPredictedLatencyProducer({ name: 'pl', clock, predictor: fixedPredictor(clock, 2), metrics: registry });
    const eps = endpoints(2);
    const req = schedulingRequest({ receivedAt: clock.now(), targetModel: 'lora-a', sloTtftMs: slo.ttft, sloTpotMs: slo.tpot });
    void producer.produce(cycleContext({ clock }), req, eps);
    clock.advance(ttft - 4);
    producer.onResponseStart?.(req, { endpoint: eps[1]!, status: 200, at: clock.now() });
    clock.advance(total - ttft);
    producer.onUsage?.(req, { promptTokens: 10, completionTokens: tokens }, eps[1]!);
    producer.onComplete?.(req, { kind: 'success' }, eps[1]);
    return families(registry);
  }

  it('records the prediction pass, actual and predicted TTFT/TPOT of the served endpoint', async () => {
    // TTFT 100 ms; TPOT (1100 − 100) / (11 − 1) = 100 ms; predictions 80 / 15 ms; pass 2 × 2 ms.
    const f = await run({}, 100, 1100, 11);
    const gauge = f.get('llm_d_epp_inference_request_metric');
    expect(value(gauge, { ...MODEL, type: 'ttft' })).toBeCloseTo(0.1);
    expect(value(gauge, { ...MODEL, type: 'predicted_ttft' })).toBeCloseTo(0.08);
    expect(value(gauge, { ...MODEL, type: 'tpot' })).toBeCloseTo(0.1);
    expect(value(gauge, { ...MODEL, type: 'predicted_tpot' })).toBeCloseTo(0.015);
    expect(value(gauge, { ...MODEL, type: 'ttft_prediction_duration' })).toBeCloseTo(0.004);
    expect(value(gauge, { ...MODEL, type: 'tpot_prediction_duration' })).toBeCloseTo(0.004);
    // No SLO header: no violation series.
    expect(value(gauge, { ...MODEL, type: 'ttft_slo_violation' })).toBeUndefined();
    expect(f.get('llm_d_epp_request_slo_violation_total')?.samples ?? []).toEqual([]);

    const sum = (name: string) => value(f.get(name), MODEL, `${name}_sum`);
    expect(sum('llm_d_epp_request_predicted_ttft_seconds')).toBeCloseTo(0.08);
    expect(sum('llm_d_epp_request_predicted_tpot_seconds')).toBeCloseTo(0.015);
    expect(sum('llm_d_epp_request_ttft_prediction_duration_seconds')).toBeCloseTo(0.004);
    expect(sum('llm_d_epp_request_tpot_prediction_duration_seconds')).toBeCloseTo(0.004);
    // The predicted TTFT (0.08 s) lands in llm-d's 0.1 bucket, not its 0.05 one.
    const predicted = f.get('llm_d_epp_request_predicted_ttft_seconds');
    expect(value(predicted, { ...MODEL, le: '0.05' }, 'llm_d_epp_request_predicted_ttft_seconds_bucket')).toBe(0);
    expect(value(predicted, { ...MODEL, le: '0.1' }, 'llm_d_epp_request_predicted_ttft_seconds_bucket')).toBe(1);

    // The twin-only histograms of the actual latencies, and the twins of the current families.
    const twin = { model_name: 'm1', target_model_name: 'lora-a' };
    expect(value(f.get('inference_objective_request_ttft_seconds'), twin, 'inference_objective_request_ttft_seconds_sum')).toBeCloseTo(0.1);
    expect(value(f.get('inference_objective_request_tpot_seconds'), twin, 'inference_objective_request_tpot_seconds_sum')).toBeCloseTo(0.1);
    expect(value(f.get('inference_objective_request_predicted_ttft_seconds'), twin, 'inference_objective_request_predicted_ttft_seconds_sum')).toBeCloseTo(0.08);
    expect(value(f.get('inference_objective_inference_request_metric'), { ...twin, type: 'tpot' })).toBeCloseTo(0.1);
  });

  it('counts an SLO violation only when the actual exceeds the header SLO', async () => {
    // TTFT 100 > 50 violates; TPOT 100 < 200 does not.
    const f = await run({ ttft: 50, tpot: 200 }, 100, 1100, 11);
    const gauge = f.get('llm_d_epp_inference_request_metric');
    expect(value(gauge, { ...MODEL, type: 'ttft_slo_violation' })).toBe(1);
    expect(value(gauge, { ...MODEL, type: 'tpot_slo_violation' })).toBe(0);
    const violations = f.get('llm_d_epp_request_slo_violation_total');
    expect(value(violations, { ...MODEL, type: 'ttft' })).toBe(1);
    expect(value(violations, { ...MODEL, type: 'tpot' })).toBe(0);
    expect(value(f.get('inference_objective_request_slo_violation_total'), { model_name: 'm1', target_model_name: 'lora-a', type: 'ttft' })).toBe(1);
  });

  it('records no TPOT for a single output token', async () => {
    const f = await run({}, 100, 200, 1);
    expect(value(f.get('llm_d_epp_inference_request_metric'), { ...MODEL, type: 'tpot' })).toBeUndefined();
    expect(value(f.get('llm_d_epp_inference_request_metric'), { ...MODEL, type: 'ttft' })).toBeCloseTo(0.1);
  });

  it('registers the families once when two instances share a registry', async () => {
    const registry = new Registry();
    instantiate(predictedLatencyProducerPlugin, {}, { name: 'a', metrics: registry });
    instantiate(predictedLatencyProducerPlugin, {}, { name: 'b', metrics: registry });
    expect([...(await families(registry)).keys()].filter((n) => n.includes('predicted_ttft'))).toEqual(['llm_d_epp_request_predicted_ttft_seconds', 'inference_objective_request_predicted_ttft_seconds']);
  });
});
