import { z } from 'zod';
import type { Clock } from '../../clock/clock.js';
import type { EndpointPool } from '../../endpoints/pool.js';
import type { EndpointMetrics } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';

/**
 * Type of llm-d's integration-test metrics source. @public
 * @category Built-in plugins
 */
export const MOCK_METRICS_SOURCE = 'mock-metrics-source';

/**
 * A `mock-metrics-source` instance: a data source that scrapes nothing; whoever holds it sets
 * endpoint metrics directly, as llm-d's integration tests drive their fake engines.
 * @public
 * @category Built-in plugins
 */
export interface MockMetricsSource extends Plugin {
  /**
   * Sets the metrics of endpoint `id` (missing fields keep their current values; `updatedAt`
   * defaults to now). False when the pool has no such endpoint.
   */
  setMetrics(id: string, metrics: Partial<EndpointMetrics>): boolean;
}

/**
 * True when `p` is a {@link MockMetricsSource}. @public
 * @category Built-in plugins
 */
export function isMockMetricsSource(p: Plugin): p is MockMetricsSource {
  return p.type === MOCK_METRICS_SOURCE && typeof (p as Partial<MockMetricsSource>).setMetrics === 'function';
}

const NO_METRICS: EndpointMetrics = {
  waitingQueueSize: 0,
  runningRequestsSize: 0,
  kvCacheUsagePercent: 0,
  activeModels: [],
  waitingModels: [],
  maxActiveModels: 0,
  cacheBlockSize: 0,
  cacheNumBlocks: 0,
  updatedAt: 0,
};

/**
 * Creates the source over `pool` (the plugin definition calls it).
 * @public
 * @category Built-in plugins
 */
export function createMockMetricsSource(name: string, pool: EndpointPool, clock: Clock): MockMetricsSource {
  return {
    type: MOCK_METRICS_SOURCE,
    name,
    setMetrics(id, metrics) {
      const e = pool.get(id);
      if (e === undefined) return false;
      pool.setMetrics(id, { ...(e.metrics ?? NO_METRICS), updatedAt: clock.now(), ...metrics });
      return true;
    },
  };
}

/**
 * `mock-metrics-source`: the data source llm-d-router's integration tests register
 * (`test/integration/epp/testdata/datalayer-config.yaml` names it). It polls nothing; tests set
 * endpoint metrics through it. Loading it changes nothing else: the default metrics source still
 * scrapes, as llm-d still injects `metrics-data-source`. No parameters.
 * @public
 * @category Built-in plugins
 */
export const mockMetricsSourcePlugin = definePlugin({
  type: MOCK_METRICS_SOURCE,
  description: 'Test data source (llm-d integration tests): metrics are set by its owner, nothing is scraped.',
  parameters: z.strictObject({}).prefault({}),
  create: (_p, ctx): MockMetricsSource => createMockMetricsSource(ctx.name, ctx.pool, ctx.clock),
});
