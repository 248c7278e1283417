import type { MetricsScraper } from './scraper.js';

/**
 * Logs a scraper's outages: one line when an endpoint's polls start failing and one when they
 * recover, not one per poll (they run up to 20 times a second). While polls fail the scorers see
 * the endpoint as last scraped, so this is what tells an operator that scheduling runs blind.
 * Attach it before `start()` so that no first failure is missed.
 * @param prefix - put before every line (e.g. `pool "a": `)
 * @public
 * @category Model-server metrics
 */
export function logScrapeOutages(scraper: MetricsScraper, log: (line: string) => void, prefix = ''): void {
  scraper.on('error', (_endpoint, error, consecutiveFailures) => {
    if (consecutiveFailures === 1) log(`${prefix}${error.message}; scheduling sees no fresh metrics for it, retrying with backoff`);
  });
  scraper.on('recovered', (endpoint) => {
    log(`${prefix}metrics of endpoint "${endpoint.id}" are back`);
  });
}
