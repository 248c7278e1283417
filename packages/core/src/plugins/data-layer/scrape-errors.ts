import type { MetricsScraper } from '../../model-metrics/scraper.js';
import type { SchedulerMetrics } from '../../observability/metrics.js';
import { CORE_METRICS_EXTRACTOR } from './core-metrics-extractor.js';
import { METRICS_DATA_SOURCE } from './metrics-data-source.js';

/**
 * Counts a model-server scraper's failures in llm-d's data-layer families:
 * `llm_d_epp_datalayer_poll_errors_total{source_type="metrics-data-source"}` when the page could
 * not be fetched, `llm_d_epp_datalayer_extract_errors_total{source_type="metrics-data-source",
 * extractor_type="core-metrics-extractor"}` when it came but its metrics could not be read. Attach
 * it before the scraper starts.
 * @public
 * @category Built-in plugins
 */
export function countScrapeErrors(scraper: MetricsScraper, metrics: SchedulerMetrics): void {
  const poll = metrics.dataLayerPollErrors.labels(METRICS_DATA_SOURCE);
  const extract = metrics.dataLayerExtractErrors.labels(METRICS_DATA_SOURCE, CORE_METRICS_EXTRACTOR);
  scraper.on('error', (_endpoint, _error, _failures, stage) => {
    (stage === 'poll' ? poll : extract).inc();
  });
}
