import { Gauge, type Registry } from 'prom-client';
import type { NotActedOnParameter } from '../config/not-acted-on.js';

/**
 * Name of the gauge that lists accepted-but-not-acted-on config parameters.
 * @public
 * @category Metrics of our own
 */
export const NOT_ACTED_ON_METRIC = 'switchyard_config_parameter_not_acted_on';

/**
 * Registers (once per registry) and sets `switchyard_config_parameter_not_acted_on{plugin_name,
 * plugin_type, parameter} 1` for each parameter of the loaded config that llm-d accepts and
 * Switchyard loads without acting on, so `/metrics` shows which settings have no effect.
 * @public
 * @category Metrics of our own
 */
export function recordNotActedOn(registry: Registry, parameters: readonly NotActedOnParameter[]): void {
  let gauge = registry.getSingleMetric(NOT_ACTED_ON_METRIC) as Gauge<'plugin_name' | 'plugin_type' | 'parameter'> | undefined;
  if (gauge === undefined) {
    gauge = new Gauge({
      name: NOT_ACTED_ON_METRIC,
      help: 'Config parameters llm-d accepts that this Switchyard build loads but does not act on (value 1 per parameter).',
      labelNames: ['plugin_name', 'plugin_type', 'parameter'],
      registers: [registry],
    });
  }
  for (const p of parameters) gauge.labels(p.plugin, p.type, p.parameter).set(1);
}
