import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createDefaultRegistry, gpuUtilizationOf, isDcgmDataSource, isDcgmExtractor, loadConfig, parsePrometheusText } from '@switchyard/core';

// A page in the DCGM exporter's documented format (dcgm-exporter's default counters): one
// series per GPU, labelled with the pod that holds it when Kubernetes pod mapping is on.
const page = (byPod: Record<string, number[]>): string =>
  [
    '# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).',
    '# TYPE DCGM_FI_DEV_GPU_UTIL gauge',
    ...Object.entries(byPod).flatMap(([pod, values]) =>
      values.map((v, gpu) => `DCGM_FI_DEV_GPU_UTIL{gpu="${gpu}",UUID="GPU-${pod}-${gpu}",device="nvidia${gpu}",modelName="NVIDIA H100 80GB HBM3",Hostname="node-1",container="vllm",namespace="default",pod="${pod}"} ${v}`),
    ),
    '# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).',
    '# TYPE DCGM_FI_DEV_FB_USED gauge',
    'DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-x",device="nvidia0",modelName="NVIDIA H100 80GB HBM3",Hostname="node-1"} 1024',
    '',
  ].join('\n');

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) resolve();
    else server.close(() => { resolve(); });
  });
  server = undefined;
});

/** A fake DCGM exporter on loopback serving `body()` at /metrics (404 elsewhere). */
async function fakeExporter(body: () => string | undefined): Promise<number> {
  server = createServer((req, res) => {
    const text = body();
    if (req.url !== '/metrics' || text === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(text);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const config = (port: number): string => `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: dcgm-data-source
  name: dcgm-source
  parameters:
    port: ${port}
    interval: "1s"
- type: dcgm-extractor
  name: dcgm-extractor
- type: queue-scorer
dataLayer:
  sources:
  - pluginRef: dcgm-source
    extractors:
    - pluginRef: dcgm-extractor
`;

describe('dcgm-data-source + dcgm-extractor', () => {
  it('reads the highest GPU utilization of each pod, as a fraction', () => {
    const families = parsePrometheusText(page({ 'vllm-0': [10, 85], 'vllm-1': [40] }));
    expect(gpuUtilizationOf(families, 'vllm-0')).toBe(0.85);
    expect(gpuUtilizationOf(families, 'vllm-1')).toBe(0.4);
    expect(gpuUtilizationOf(families, undefined)).toBe(0.85);
    expect(gpuUtilizationOf(families, 'other')).toBeUndefined();
    expect(gpuUtilizationOf(parsePrometheusText('up 1\n'), 'vllm-0')).toBeUndefined();
  });

  it('polls a fake exporter per endpoint host and publishes GPUUtilization/<extractor>', async () => {
    let utilization = { 'vllm-0': [30, 70], 'vllm-1': [5] };
    const port = await fakeExporter(() => page(utilization));
    const pool = new EndpointPool();
    pool.add({ id: 'default/vllm-0-rank-0', address: '127.0.0.1:8000' });
    pool.add({ id: 'default/vllm-1-rank-0', address: '127.0.0.1:8001' });
    const clock = new ManualClock();
    const loaded = loadConfig(config(port), { registry: createDefaultRegistry(), pool, clock });
    const source = loaded.plugins.get('dcgm-source');
    const extractor = loaded.plugins.get('dcgm-extractor');
    if (source === undefined || !isDcgmDataSource(source) || extractor === undefined || !isDcgmExtractor(extractor)) throw new Error('plugins missing');
    try {
      expect(source.urlOf(pool.list()[0]!)).toBe(`http://127.0.0.1:${port}/metrics`);
      await source.pollOnce();
      expect(extractor.utilization('default/vllm-0-rank-0')).toBe(0.7);
      expect(extractor.utilization('default/vllm-1-rank-0')).toBe(0.05);
      utilization = { 'vllm-0': [100, 0], 'vllm-1': [50] };
      await source.pollOnce();
      expect(extractor.utilization('default/vllm-0-rank-0')).toBe(1);
      // The extractor is a data producer: consumers read the map from the request attributes.
      expect(extractor.produces).toEqual(['GPUUtilization/dcgm-extractor']);
      pool.remove('default/vllm-1-rank-0');
      expect(extractor.utilization('default/vllm-1-rank-0')).toBeUndefined();
    } finally {
      for (const p of loaded.plugins.values()) await p.close?.();
    }
  });

  it('counts failed polls without throwing and recovers', async () => {
    let healthy = false;
    const port = await fakeExporter(() => (healthy ? page({ 'vllm-0': [20] }) : undefined));
    const pool = new EndpointPool();
    pool.add({ id: 'default/vllm-0-rank-0', address: '127.0.0.1:8000' });
    const loaded = loadConfig(config(port), { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
    const source = loaded.plugins.get('dcgm-source');
    const extractor = loaded.plugins.get('dcgm-extractor');
    if (source === undefined || !isDcgmDataSource(source) || extractor === undefined || !isDcgmExtractor(extractor)) throw new Error('plugins missing');
    try {
      await source.pollOnce();
      expect(source.failures('default/vllm-0-rank-0')).toBe(1);
      expect(extractor.utilization('default/vllm-0-rank-0')).toBeUndefined();
      healthy = true;
      await source.pollOnce();
      expect(source.failures('default/vllm-0-rank-0')).toBe(0);
      expect(extractor.utilization('default/vllm-0-rank-0')).toBe(0.2);
    } finally {
      for (const p of loaded.plugins.values()) await p.close?.();
    }
  });

  it("defaults to the exporter's port 9400 and /metrics", () => {
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.7:8000' });
    const loaded = loadConfig('{apiVersion: llm-d.ai/v1alpha1, kind: EndpointPickerConfig, plugins: [{type: dcgm-data-source}, {type: dcgm-extractor}, {type: queue-scorer}]}', { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
    const source = loaded.plugins.get('dcgm-data-source');
    if (source === undefined || !isDcgmDataSource(source)) throw new Error('missing');
    expect(source.urlOf(pool.list()[0]!)).toBe('http://10.0.0.7:9400/metrics');
    void source.close?.();
  });
});
