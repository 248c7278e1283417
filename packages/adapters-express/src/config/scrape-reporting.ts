import type { Endpoint, MetricsScraper, SwitchyardError } from '@switchyard/core';
import type { GatewayMetrics } from '../gateway/metrics.js';

/**
 * Makes a pool's failing metrics polls visible. Every failure counts in
 * `switchyard_gateway_metrics_scrape_errors_total{pool,reason}`; `log` gets one line when an
 * endpoint's polls start failing and one when they recover, not one per poll (they run up to 20
 * times a second). Without metrics the scorers see an idle endpoint, so this is what tells an
 * operator that scheduling runs blind. Attach it before the scraper starts.
 * @internal
 */
export function reportScrapes(pool: string, scraper: MetricsScraper, metrics: GatewayMetrics, log: ((line: string) => void) | undefined): void {
  const timeouts = metrics.scrapeErrors.labels(pool, 'timeout');
  const unavailable = metrics.scrapeErrors.labels(pool, 'unavailable');
  scraper.on('error', (_endpoint: Endpoint, error: SwitchyardError, consecutiveFailures: number) => {
    (error.code === 'UPSTREAM_TIMEOUT' ? timeouts : unavailable).inc();
    if (consecutiveFailures === 1) log?.(`pool "${pool}": ${error.message}; scheduling sees no fresh metrics for it, retrying with backoff`);
  });
  scraper.on('recovered', (endpoint: Endpoint) => {
    log?.(`pool "${pool}": metrics of endpoint "${endpoint.id}" are back`);
  });
}
