import { withScrapePort } from '@switchyard/core/internal';
import { httpEndpointProbe, type KubernetesCliDiscovery, type KubernetesMetrics } from '@switchyard/kubernetes';
import type { RunningEpp } from '../epp/start-epp.js';

/**
 * Follows the pool on Kubernetes for a started EPP: pods into `epp.pool` (scraped as the config's
 * data layer scrapes, before they join), objectives and rewrites into the picker's stores, IPP
 * ConfigMaps into `kube.modelMappings`, readiness (and leadership) into the gRPC health service.
 * @returns what the CLI drains on SIGTERM
 * @public
 */
export async function attachKubernetes(epp: RunningEpp, kube: KubernetesCliDiscovery, metrics: KubernetesMetrics, log: (line: string) => void): Promise<{ drain(): Promise<void>; close(): Promise<void> }> {
  const scrape = epp.config.dataLayerSettings.scrape;
  const running = await kube.start({
    pool: epp.pool,
    objectives: epp.objectives,
    rewrites: epp.rewrites,
    metrics,
    prepare: (spec) => withScrapePort(spec, scrape),
    probe: epp.effective.scrapeIntervalMs === false ? false : httpEndpointProbe({ path: scrape.path, scheme: scrape.scheme }),
    log,
  });
  epp.health.setReady(running.ready);
  running.on('readiness', (ready) => { epp.health.setReady(ready); });
  return { drain: () => running.drain(), close: () => running.close() };
}
