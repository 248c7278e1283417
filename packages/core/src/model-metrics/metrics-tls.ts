import { readFileSync } from 'node:fs';
import type { MetricsScrapeSettings } from '../config/data-layer-settings.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { MetricsTlsOptions } from './http-fetcher.js';

/**
 * TLS options for scraping over `https`, from the llm-d `metrics-data-source` settings: the
 * certificate files are read once, at startup. Undefined for `http`.
 * (The config loader already checked that `clientCertPath` and `clientKeyPath` come together.)
 * @throws SwitchyardError `CONFIG_INVALID` naming the source, the field and the file when a file
 *   cannot be read
 * @public
 * @category Model-server metrics
 */
export function readMetricsTls(scrape: MetricsScrapeSettings): MetricsTlsOptions | undefined {
  if (scrape.scheme !== 'https') return undefined;
  const where = `metrics-data-source${scrape.source === undefined ? '' : ` "${scrape.source}"`}`;
  const read = (field: string, path: string | undefined): Buffer | undefined => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      throw new SwitchyardError('CONFIG_INVALID', `${where}: ${field} "${path}" cannot be read: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  };
  const ca = read('caCertPath', scrape.caCertPath);
  const cert = read('clientCertPath', scrape.clientCertPath);
  const key = read('clientKeyPath', scrape.clientKeyPath);
  return {
    rejectUnauthorized: !scrape.insecureSkipVerify,
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
  };
}
