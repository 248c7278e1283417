import { logScrapeOutages, type MetricsScraper } from '@switchyard/core';
import type { GatewayMetrics } from '../gateway/metrics.js';

/**
 * Makes a pool's failing metrics polls visible: every failure counts in
 * `switchyard_gateway_metrics_scrape_errors_total{pool,reason}`, and `log` gets each outage and
 * recovery (see `logScrapeOutages`). Attach it before the scraper starts.
 * @internal
 */
export function reportScrapes(pool: string, scraper: MetricsScraper, metrics: GatewayMetrics, log: ((line: string) => void) | undefined): void {
  const timeouts = metrics.scrapeErrors.labels(pool, 'timeout');
  const unavailable = metrics.scrapeErrors.labels(pool, 'unavailable');
  scraper.on('error', (_endpoint, error) => {
    (error.code === 'UPSTREAM_TIMEOUT' ? timeouts : unavailable).inc();
  });
  if (log !== undefined) logScrapeOutages(scraper, log, `pool "${pool}": `);
}
