import type { Registry } from 'prom-client';
import { splitEndpointId } from '../../endpoints/endpoint-id.js';
import type { Endpoint } from '../../endpoints/types.js';
import { FastGauge, type FastGaugeChild } from '../../observability/fast-metrics.js';
import type { SchedulingResult } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';
import { producedPromptTokens, uncachedPromptTokens } from '../request-tokens.js';

type InFlightLabel = 'endpoint_name' | 'namespace' | 'producer_name' | 'fairness_id' | 'priority';
const LABELS: InFlightLabel[] = ['endpoint_name', 'namespace', 'producer_name', 'fairness_id', 'priority'];

/** The family `name` of `registry`, created on first use (several pools and producers share one registry). */
function gaugeOf(registry: Registry, name: string, help: string): FastGauge<InFlightLabel> {
  const existing = registry.getSingleMetric(name) as FastGauge<InFlightLabel> | undefined;
  return existing ?? new FastGauge<InFlightLabel>({ name, help, labelNames: LABELS, registers: [registry] });
}

/** One endpoint's share of one request: what was added to its series, so exactly that is taken back. */
interface Charge {
  readonly profile: string;
  readonly requests: FastGaugeChild;
  readonly tokens: FastGaugeChild;
  requestHeld: boolean;
  tokensHeld: number;
}

/**
 * llm-d's `llm_d_epp_inflight_requests` / `llm_d_epp_inflight_tokens` gauges of one
 * `inflight-load-producer`, kept as llm-d keeps them: at PreRequest the first target of **every**
 * profile result gets one request and the request's uncached prompt tokens on that endpoint; at the
 * first response byte the `prefill` profile's endpoint is released entirely and the others give
 * back their tokens (keeping the request); at completion everything left is released. Scheduling
 * itself reads the pool's exact counts; these gauges are what dashboards built for llm-d expect.
 * @internal
 */
export class InFlightGauges {
  readonly #requests: FastGauge<InFlightLabel>;
  readonly #tokens: FastGauge<InFlightLabel>;
  readonly #producer: string;
  readonly #charges = new WeakMap<SchedulingRequest, Charge[]>();

  constructor(registry: Registry, producerName: string) {
    this.#requests = gaugeOf(registry, 'llm_d_epp_inflight_requests', 'In-flight requests per endpoint, as inflight-load-producer counts them.');
    this.#tokens = gaugeOf(registry, 'llm_d_epp_inflight_tokens', 'In-flight uncached prompt tokens per endpoint, as inflight-load-producer counts them.');
    this.#producer = producerName;
  }

  /** Charges each profile's first target. */
  charge(request: SchedulingRequest, result: SchedulingResult): void {
    const prompt = producedPromptTokens(request);
    const charges: Charge[] = [];
    for (const [profile, r] of result.profileResults) {
      const endpoint = r?.targets[0];
      if (endpoint === undefined) continue;
      const labels = this.#labels(request, endpoint);
      const charge: Charge = { profile, requests: this.#requests.labels(...labels), tokens: this.#tokens.labels(...labels), requestHeld: true, tokensHeld: uncachedPromptTokens(request, endpoint, prompt) };
      charge.requests.inc(1);
      charge.tokens.inc(charge.tokensHeld);
      charges.push(charge);
    }
    this.#charges.set(request, charges);
  }

  /** First response byte: the prefill endpoint's work is done, the others' prompt is processed. */
  responseStarted(request: SchedulingRequest): void {
    for (const c of this.#charges.get(request) ?? []) {
      this.#releaseTokens(c);
      if (c.profile === 'prefill') this.#releaseRequest(c);
    }
  }

  /** The request ended: whatever it still holds is released. */
  completed(request: SchedulingRequest): void {
    for (const c of this.#charges.get(request) ?? []) {
      this.#releaseTokens(c);
      this.#releaseRequest(c);
    }
    this.#charges.delete(request);
  }

  #releaseTokens(c: Charge): void {
    c.tokens.dec(c.tokensHeld);
    c.tokensHeld = 0;
  }

  #releaseRequest(c: Charge): void {
    if (!c.requestHeld) return;
    c.requests.dec(1);
    c.requestHeld = false;
  }

  /** Label values: ids are `<namespace>/<name>` under Kubernetes, a bare address otherwise. */
  #labels(request: SchedulingRequest, endpoint: Endpoint): [string, string, string, string, string] {
    const { namespace, name } = splitEndpointId(endpoint.id);
    return [name, namespace, this.#producer, request.fairnessId, String(request.priority)];
  }
}
