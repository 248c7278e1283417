import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EndpointPicker, EndpointPool, ManualClock, createDefaultRegistry, isMulticlusterMetricsDataSource, isMulticlusterMetricsExtractor,
  loadConfig, parsePrometheusText, parseRequest, selectGaugeValue, startDiscovery,
} from '@switchyard/core';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';

/** A remote EPP's pool gauges, in the format llm-d's (and switchyard-epp's) /metrics has. */
const eppPage = (queue: number, kv: number): string =>
  [
    '# HELP llm_d_epp_average_queue_size Average queue size of the pool.',
    '# TYPE llm_d_epp_average_queue_size gauge',
    `llm_d_epp_average_queue_size{name="pool-a"} ${queue}`,
    '# HELP llm_d_epp_average_kv_cache_utilization Average KV-cache utilization of the pool.',
    '# TYPE llm_d_epp_average_kv_cache_utilization gauge',
    `llm_d_epp_average_kv_cache_utilization{name="pool-a"} ${kv}`,
    '',
  ].join('\n');

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A fake remote EPP on loopback serving `body()` at /metrics; returns its port and the paths asked for. */
async function fakeEpp(body: () => string): Promise<{ port: number; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    if (req.url !== '/metrics') res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(body());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, paths };
}

describe('selectGaugeValue', () => {
  const families = parsePrometheusText(
    '# TYPE q gauge\nq{name="a"} 3 1000\nq{name="a"} 5 2000\nq{name="b"} 9\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_count 1\nh_sum 1\n# TYPE c counter\nc_total 4\nbare 2\n',
  );
  it('takes the matching gauge or counter series with the latest timestamp', () => {
    expect(selectGaugeValue(families, { name: 'q', labels: { name: 'a' } })).toBe(5);
    expect(selectGaugeValue(families, { name: 'q', labels: { name: 'b' } })).toBe(9);
    expect(selectGaugeValue(families, { name: 'q', labels: { name: 'z' } })).toBeUndefined();
    expect(selectGaugeValue(parsePrometheusText('# TYPE c_total counter\nc_total 4\n'), { name: 'c_total' })).toBe(4);
  });
  it('ignores histograms and untyped samples', () => {
    expect(selectGaugeValue(families, { name: 'h' })).toBeUndefined();
    expect(selectGaugeValue(families, { name: 'bare' })).toBeUndefined();
  });
});

describe('multicluster-metrics-data-source + multicluster-metrics-extractor', () => {
  /** Two clusters named by host name, scraped at the metricsAddress / metricsPort their labels give. */
  async function clusters(queueA: () => number, queueB: () => number) {
    const a = await fakeEpp(() => eppPage(queueA(), 0.25));
    const b = await fakeEpp(() => eppPage(queueB(), 0.75));
    const dir = mkdtempSync(join(tmpdir(), 'mc-metrics-'));
    const file = join(dir, 'clusters.yaml');
    writeFileSync(
      file,
      `endpoints:\n- name: us-east\n  address: epp.us-east.example.com\n  port: "8081"\n  labels: {metricsAddress: "127.0.0.1", metricsPort: "${a.port}"}\n` +
        `- name: eu\n  address: epp.eu.example.com\n  port: "8081"\n  labels: {metricsAddress: " [127.0.0.1] ", metricsPort: "${b.port}"}\n`,
    );
    const doc = `${HEAD}plugins:
- type: multicluster-file-discovery
  name: clusters
  parameters: {path: ${JSON.stringify(file)}}
- type: multicluster-metrics-data-source
  name: remote
  parameters: {scheme: http, port: 1234, interval: 1s}
- type: multicluster-metrics-extractor
  name: pools
- type: multicluster-queue-scorer
- type: multicluster-kv-cache-utilization-scorer
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins: [{pluginRef: multicluster-queue-scorer}, {pluginRef: max-score-picker}]
dataLayer:
  discovery: {pluginRef: clusters}
  sources:
  - pluginRef: remote
    extractors: [{pluginRef: pools}]
`;
    const pool = new EndpointPool();
    const clock = new ManualClock();
    const loaded = loadConfig(doc, { registry: createDefaultRegistry(), pool, clock });
    startDiscovery(loaded, { upsert: (s) => void pool.upsert(s), remove: (id) => void pool.remove(id) });
    const source = loaded.plugins.get('remote');
    const extractor = loaded.plugins.get('pools');
    if (source === undefined || !isMulticlusterMetricsDataSource(source) || extractor === undefined || !isMulticlusterMetricsExtractor(extractor)) throw new Error('plugins missing');
    const cleanup = async (): Promise<void> => {
      for (const p of loaded.plugins.values()) await p.close?.();
      rmSync(dir, { recursive: true, force: true });
    };
    return { pool, clock, loaded, source, extractor, ports: [a.port, b.port], paths: [a.paths, b.paths], cleanup };
  }

  it('scrapes each cluster at its metricsAddress:metricsPort and publishes the pool gauges', async () => {
    const c = await clusters(() => 7, () => 2);
    try {
      const [east, eu] = [c.pool.get('default/us-east')!, c.pool.get('default/eu')!];
      // `port` is decoded and ignored, as in llm-d: the labels decide where the page is.
      expect(c.source.urlOf(east)).toBe(`http://127.0.0.1:${c.ports[0]}/metrics`);
      expect(c.source.urlOf(eu)).toBe(`http://127.0.0.1:${c.ports[1]}/metrics`);
      await c.source.pollOnce();
      expect(c.paths).toEqual([['/metrics'], ['/metrics']]);
      expect(c.extractor.values('default/us-east')).toEqual({ kvCacheUtilization: 0.25, queueSize: 7 });
      expect(c.extractor.values('default/eu')).toEqual({ kvCacheUtilization: 0.75, queueSize: 2 });
      expect(c.extractor.produces).toEqual(['llm-d.ai/multicluster-kv-cache-utilization', 'llm-d.ai/multicluster-queue-size']);
    } finally {
      await c.cleanup();
    }
  });

  it('the multicluster queue scorer routes to the cluster whose remote pool has the shorter queue', async () => {
    let east = 7;
    const c = await clusters(() => east, () => 2);
    try {
      const picker = new EndpointPicker({ pool: c.pool, clock: c.clock, config: c.loaded, staleness: { policy: 'ignore' } });
      const request = () => parseRequest({ path: '/v1/completions', headers: {}, body: '{"model":"m","prompt":"hi"}' });
      await c.source.pollOnce();
      const first = await picker.pick(request());
      expect(first.primary.id).toBe('default/eu');
      first.complete({ kind: 'success' });
      east = 0;
      await c.source.pollOnce();
      const second = await picker.pick(request());
      expect(second.primary.id).toBe('default/us-east');
      second.complete({ kind: 'success' });
    } finally {
      await c.cleanup();
    }
  });

  it('an unreachable cluster counts failures and keeps its last values', async () => {
    const c = await clusters(() => 1, () => 1);
    try {
      await c.source.pollOnce();
      await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve); })));
      await c.source.pollOnce();
      expect(c.source.failures('default/us-east')).toBe(1);
      expect(c.extractor.values('default/us-east').queueSize).toBe(1);
      c.pool.remove('default/us-east');
      expect(c.extractor.values('default/us-east')).toEqual({ kvCacheUtilization: undefined, queueSize: undefined });
    } finally {
      await c.cleanup();
    }
  });

  it("takes llm-d's parameters and defaults; rejects unknown ones and bad specs naming the field", () => {
    const load = (plugins: string) => loadConfig(`${HEAD}plugins:\n${plugins}- type: queue-scorer\n`, { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });
    const pool = new EndpointPool();
    pool.add({ id: 'x', address: '10.0.0.9:8081', metricsPort: 9090 });
    const loaded = loadConfig(`${HEAD}plugins:\n- type: multicluster-metrics-data-source\n- type: queue-scorer\n`, { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
    const source = loaded.plugins.get('multicluster-metrics-data-source');
    if (source === undefined || !isMulticlusterMetricsDataSource(source)) throw new Error('missing');
    expect(source.urlOf(pool.list()[0]!)).toBe('https://10.0.0.9:9090/metrics');
    void source.close?.();
    expect(() => load('- type: multicluster-metrics-data-source\n  parameters: {scheme: https, path: /m, port: 9090, insecureSkipVerify: true, caCertPath: "", clientCertPath: "", clientKeyPath: "", interval: 5s}\n')).not.toThrow();
    expect(() => load('- type: multicluster-metrics-data-source\n  parameters: {timeout: 5s}\n')).toThrow(/plugins\[0\]\.parameters.*timeout/);
    expect(() => load('- type: multicluster-metrics-data-source\n  parameters: {scheme: https, caCertPath: /nonexistent/ca.pem}\n')).toThrow(/caCertPath/);
    expect(() => load('- type: multicluster-metrics-extractor\n  parameters: {kvCacheUtilizationMetric: "kv{name=\\"p\\"}", queueSizeMetric: q}\n')).not.toThrow();
    expect(() => load('- type: multicluster-metrics-extractor\n  parameters: {queueSizeMetric: "q{name"}\n')).toThrow(/queueSizeMetric/);
    expect(() => load('- type: multicluster-metrics-extractor\n  parameters: {metric: q}\n')).toThrow(/plugins\[0\]\.parameters.*metric/);
  });
});

describe('multicluster-file-discovery metricsAddress', () => {
  it('sets the scrape host; a blank label leaves the endpoint host', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mc-addr-'));
    try {
      const file = join(dir, 'c.yaml');
      writeFileSync(file, 'endpoints:\n- name: a\n  address: epp.a.example.com\n  port: "8081"\n  labels: {metricsAddress: metrics.a.example.com}\n- name: b\n  address: epp.b.example.com\n  port: "8081"\n  labels: {metricsAddress: "  "}\n- name: c\n  address: epp.c.example.com\n  port: "8081"\n  labels: {metricsAddress: "[fd00::9]", metricsPort: "9090"}\n');
      const pool = new EndpointPool();
      const loaded = loadConfig(`${HEAD}plugins:\n- type: multicluster-file-discovery\n  name: d\n  parameters: {path: ${JSON.stringify(file)}}\n- type: queue-scorer\ndataLayer:\n  discovery: {pluginRef: d}\n`, { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
      startDiscovery(loaded, { upsert: (s) => void pool.upsert(s), remove: (id) => void pool.remove(id) });
      expect(pool.list().map((e) => [e.id, e.metricsHost, e.metricsPort])).toEqual([
        ['default/a', 'metrics.a.example.com', 8081],
        ['default/b', undefined, 8081],
        ['default/c', 'fd00::9', 9090],
      ]);
      for (const p of loaded.plugins.values()) void p.close?.();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
