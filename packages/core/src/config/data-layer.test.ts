import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createDefaultRegistry, loadConfig, type LoadedConfig } from '@switchyard/core';
import { parseMetricSpec } from '@switchyard/core/internal';

const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';
const load = (source: string | object | undefined): LoadedConfig => loadConfig(source, { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });
const scorerShape = (c: LoadedConfig): [string, number][] => (c.profiles.get('default')?.scorers ?? []).map((s) => [s.scorer.type, s.weight]);

describe('no config means defaults', () => {
  it.each([undefined, '', '   \n', '# only a comment\n', 'null\n', '---\n'])('%j loads the default scorers', (source) => {
    const c = load(source);
    expect(scorerShape(c)).toEqual([
      ['queue-scorer', 2],
      ['kv-cache-utilization-scorer', 2],
    ]);
    expect(c.dataLayerSettings.scrape).toMatchObject({ source: undefined, scheme: 'http', path: '/metrics', intervalMs: undefined, mappings: {} });
  });

  it('keeps an explicit document strict about apiVersion and kind', () => {
    expect(() => load('{}')).toThrow(/apiVersion/);
    expect(() => load({})).toThrow(/apiVersion/);
    expect(() => load('apiVersion: llm-d.ai/v1alpha1\n')).toThrow(/kind/);
  });

  it('still loads the minimal document the Envoy adapter passes', () => {
    expect(scorerShape(load({ apiVersion: 'inference.networking.x-k8s.io/v1alpha1', kind: 'EndpointPickerConfig' }))).toHaveLength(2);
  });
});

describe('metrics-data-source', () => {
  it('exposes path, scheme, port and a rounded interval', () => {
    const c = load(`${HEAD}plugins:\n- type: metrics-data-source\n  parameters:\n    scheme: https\n    path: /custom\n    port: 9100\n    insecureSkipVerify: false\n    caCertPath: /etc/ca.pem\n    interval: 120ms\n`);
    expect(c.dataLayerSettings.scrape).toMatchObject({ source: 'metrics-data-source', scheme: 'https', path: '/custom', port: 9100, insecureSkipVerify: false, caCertPath: '/etc/ca.pem', intervalMs: 100 });
  });

  it('never rounds an interval below the 50 ms base tick', () => {
    expect(load(`${HEAD}plugins:\n- type: metrics-data-source\n  parameters:\n    interval: 10ms\n`).dataLayerSettings.scrape.intervalMs).toBe(50);
    expect(load(`${HEAD}plugins:\n- type: metrics-data-source\n  parameters:\n    interval: 1s\n`).dataLayerSettings.scrape.intervalMs).toBe(1000);
  });

  it('rejects unknown parameters and bad values naming the field', () => {
    expect(() => load(`${HEAD}plugins:\n- type: metrics-data-source\n  parameters:\n    pathh: /m\n`)).toThrow(/plugins\[0\]\.parameters.*pathh/);
    expect(() => load(`${HEAD}plugins:\n- type: metrics-data-source\n  parameters:\n    scheme: ftp\n`)).toThrow(/plugins\[0\]\.parameters\.scheme/);
    expect(() => load(`${HEAD}plugins:\n- type: metrics-data-source\n  parameters:\n    clientCertPath: /c.pem\n`)).toThrow(/clientKeyPath/);
  });
});

describe('core-metrics-extractor', () => {
  const withEngines = `${HEAD}plugins:
- type: metrics-data-source
- type: core-metrics-extractor
  parameters:
    defaultEngine: sglang
    engineConfigs:
    - name: vllm
      queuedRequestsSpec: "vllm:num_requests_waiting"
      runningRequestsSpec: "vllm:num_requests_running"
      kvUsageSpec: "vllm:kv_cache_usage_perc"
      loraSpec: ""
      cacheInfoSpec: ""
    - name: my-engine
      queuedRequestsSpec: "mine_waiting{kind=queued}"
dataLayer:
  sources:
  - pluginRef: metrics-data-source
    extractors:
    - pluginRef: core-metrics-extractor
`;

  it('turns engineConfigs into engine mappings (empty spec = disabled)', () => {
    const s = load(withEngines).dataLayerSettings.scrape;
    expect(s.extractors).toEqual(['core-metrics-extractor']);
    expect(s.mappings.vllm).toMatchObject({ waiting: [{ name: 'vllm:num_requests_waiting' }], loraInfo: [], cacheInfo: [] });
    expect(s.mappings.sglang).toBeUndefined();
  });

  it('accepts the upstream name model-server-protocol-metrics', () => {
    const c = load(`${HEAD}plugins:\n- type: model-server-protocol-metrics\n  parameters:\n    engineConfigs:\n    - name: sglang\n      queuedRequestsSpec: q\n`);
    expect(c.dataLayerSettings.scrape.mappings.sglang?.waiting).toEqual([{ name: 'q' }]);
  });

  it('rejects an unknown defaultEngine and malformed specs', () => {
    expect(() => load(`${HEAD}plugins:\n- type: core-metrics-extractor\n  parameters:\n    defaultEngine: nope\n`)).toThrow(/plugins\[0\].*defaultEngine "nope"/);
    expect(() => load(`${HEAD}plugins:\n- type: core-metrics-extractor\n  parameters:\n    engineConfigs:\n    - name: vllm\n      kvUsageSpec: "bad{x"\n`)).toThrow(/plugins\[0\].*bad\{x/);
  });
});

describe('dataLayer block', () => {
  it('rejects undefined references and unknown fields with their path', () => {
    expect(() => load(`${HEAD}dataLayer:\n  sources:\n  - pluginRef: metrics-data-source\n`)).toThrow(/dataLayer\.sources\[0\]\.pluginRef: plugin "metrics-data-source" is not defined/);
    expect(() => load(`${HEAD}plugins:\n- type: metrics-data-source\ndataLayer:\n  sources:\n  - pluginRef: metrics-data-source\n    extractors:\n    - pluginRef: missing\n`)).toThrow(/dataLayer\.sources\[0\]\.extractors\[0\]\.pluginRef/);
    expect(() => load(`${HEAD}dataLayer:\n  source: []\n`)).toThrow(/dataLayer/);
  });

  it('rejects a discovery reference to an undefined or non-discovery plugin', () => {
    expect(() => load(`${HEAD}dataLayer:\n  discovery:\n    pluginRef: file-discovery\n`)).toThrow(/dataLayer\.discovery\.pluginRef: plugin "file-discovery" is not defined/);
    expect(() => load(`${HEAD}plugins:\n- type: queue-scorer\ndataLayer:\n  discovery:\n    pluginRef: queue-scorer\n`)).toThrow(/dataLayer\.discovery\.pluginRef: .*not an endpoint discovery plugin/);
  });

  it('passes the discovery reference on and keeps the block in the effective config', () => {
    const c = load(`${HEAD}plugins:\n- type: endpoint-notification-source\n- type: file-discovery\n  parameters:\n    path: endpoints.yaml\ndataLayer:\n  injectDefaults: false\n  discovery:\n    pluginRef: file-discovery\n  sources:\n  - pluginRef: endpoint-notification-source\n`);
    expect(c.dataLayerSettings.discovery).toBe('file-discovery');
    expect(c.dataLayerSettings.metricsSources).toEqual([]);
    expect(load(c.printEffectiveConfig()).dataLayerSettings.discovery).toBe('file-discovery');
  });
});

describe('inflight-load-producer parameters', () => {
  it('accepts llm-d parameter names and rejects others', () => {
    expect(() => load(`${HEAD}plugins:\n- type: inflight-load-producer\n  parameters:\n    prefixMatchInfoProducerName: precise-prefix-cache-producer\n    addEstimatedOutputTokens: true\n`)).not.toThrow();
    expect(() => load(`${HEAD}plugins:\n- type: inflight-load-producer\n  parameters:\n    bogus: 1\n`)).toThrow(/plugins\[0\]\.parameters.*bogus/);
  });
});

describe('parseMetricSpec', () => {
  const ident = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
  const value = fc.stringMatching(/^[a-z0-9_.-]{0,8}$/);

  it('round-trips any name with labels, quoted or not', () => {
    fc.assert(
      fc.property(ident, fc.dictionary(ident, value, { maxKeys: 3 }), fc.boolean(), (name, labels, quote) => {
        const body = Object.entries(labels).map(([k, v]) => `${k}=${quote ? `"${v}"` : v}`).join(',');
        const spec = body === '' ? name : `${name}{${body}}`;
        const parsed = parseMetricSpec(spec);
        expect(parsed?.name).toBe(name);
        expect(parsed?.labels ?? {}).toEqual(labels);
      }),
    );
  });

  it('treats an empty spec as disabled and rejects malformed ones', () => {
    expect(parseMetricSpec('  ')).toBeUndefined();
    for (const bad of ['a{b', '9abc', 'a{=v}', 'a{b c=1}']) expect(() => parseMetricSpec(bad)).toThrow(/invalid metric spec/);
  });
});
