import type { Endpoint, EndpointPool, MetricsScraper, SwitchyardError } from '@switchyard/core';
import type { GatewayMetrics } from '../gateway/metrics.js';

/**
 * Makes a pool's failing metrics polls visible. Every failure counts in
 * `switchyard_gateway_metrics_scrape_errors_total{pool,reason}`; `log` gets one line when an
 * endpoint's polls start failing and one when they recover, not one per poll (they run up to 20
 * times a second). Without metrics the scorers see an idle endpoint, so this is what tells an
 * operator that scheduling runs blind.
 * @returns a function that detaches every listener
 * @internal
 */
export function reportScrapes(
  pool: string,
  scraper: MetricsScraper,
  source: EndpointPool,
  metrics: GatewayMetrics,
  log: ((line: string) => void) | undefined,
): () => void {
  const timeouts = metrics.scrapeErrors.labels(pool, 'timeout');
  const unavailable = metrics.scrapeErrors.labels(pool, 'unavailable');
  // Endpoints whose polls are failing; an endpoint that leaves the pool is forgotten.
  const failing = new Set<string>();
  const onError = (endpoint: Endpoint, error: SwitchyardError): void => {
    (error.code === 'UPSTREAM_TIMEOUT' ? timeouts : unavailable).inc();
    if (failing.has(endpoint.id)) return;
    failing.add(endpoint.id);
    log?.(`pool "${pool}": ${error.message}; scheduling sees no fresh metrics for it, retrying with backoff`);
  };
  const onScrape = (endpoint: Endpoint): void => {
    if (!failing.delete(endpoint.id)) return;
    log?.(`pool "${pool}": metrics of endpoint "${endpoint.id}" are back`);
  };
  const onRemoved = (endpoint: Endpoint): void => {
    failing.delete(endpoint.id);
  };
  scraper.on('error', onError).on('scrape', onScrape);
  source.on('removed', onRemoved);
  return () => {
    scraper.off('error', onError).off('scrape', onScrape);
    source.off('removed', onRemoved);
  };
}
