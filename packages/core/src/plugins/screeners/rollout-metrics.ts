import type { Registry } from 'prom-client';
import { FastCounter, FastGauge, type FastCounterChild } from '../../observability/fast-metrics.js';

type CounterLabels = 'plugin_type' | 'plugin_name' | 'selector';
type GaugeLabels = 'plugin_type' | 'plugin_name' | 'mode' | 'revision';

/** The family `name` of `registry`, created on first use (several pickers share one registry). */
function familyOf<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/**
 * llm-d's families of one `disaggregatedset-rollout-screener`:
 * `llm_d_epp_disaggregatedset_strict_header_no_match_total{selector}` when a strict selector kept
 * nothing, and `llm_d_epp_disaggregatedset_revision_gating_share{mode,revision}` per revision,
 * set on every rebuild of the distribution, its series removed when a revision vanishes.
 * @internal
 */
export class RolloutScreenerMetrics {
  readonly #noMatch: FastCounter<CounterLabels>;
  readonly #share: FastGauge<GaugeLabels>;
  readonly #noMatchBySelector = new Map<string, FastCounterChild>();
  #revisions = new Set<string>();

  constructor(registry: Registry, private readonly pluginType: string, private readonly pluginName: string, private readonly mode: string) {
    const registers = [registry];
    this.#noMatch = familyOf(registry, 'llm_d_epp_disaggregatedset_strict_header_no_match_total', () => new FastCounter<CounterLabels>({
      name: 'llm_d_epp_disaggregatedset_strict_header_no_match_total',
      help: 'Requests whose strict DisaggregatedSet header selector matched no endpoint.',
      labelNames: ['plugin_type', 'plugin_name', 'selector'],
      registers,
    }));
    this.#share = familyOf(registry, 'llm_d_epp_disaggregatedset_revision_gating_share', () => new FastGauge<GaugeLabels>({
      name: 'llm_d_epp_disaggregatedset_revision_gating_share',
      help: 'Share of traffic each DisaggregatedSet revision receives (0 for incomplete revisions).',
      labelNames: ['plugin_type', 'plugin_name', 'mode', 'revision'],
      registers,
    }));
  }

  /** A strict selector named `selector` kept no endpoint. */
  noMatch(selector: string): void {
    let child = this.#noMatchBySelector.get(selector);
    if (child === undefined) this.#noMatchBySelector.set(selector, (child = this.#noMatch.labels(this.pluginType, this.pluginName, selector)));
    child.inc();
  }

  /** The new distribution: the share of every revision seen (0 for incomplete ones). */
  shares(byRevision: ReadonlyMap<string, number>): void {
    for (const [revision, share] of byRevision) this.#share.labels(this.pluginType, this.pluginName, this.mode, revision).set(share);
    for (const gone of this.#revisions) {
      if (!byRevision.has(gone)) this.#share.remove(this.pluginType, this.pluginName, this.mode, gone);
    }
    this.#revisions = new Set(byRevision.keys());
  }
}
