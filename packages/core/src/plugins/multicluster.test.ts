import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EndpointPool, MULTICLUSTER_ATTRIBUTES, ManualClock, createDefaultRegistry, encodeSessionToken, loadConfig, multiclusterKvCacheUtilizationScorerPlugin,
  multiclusterQueueScorerPlugin, multiclusterSessionAffinityFilterPlugin, startDiscovery, type Filter,
} from '@switchyard/core';
import { cycleContext, endpoints, instantiate, schedulingRequest, scoresOf } from '@switchyard/core/testing';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';

describe('multicluster scorers', () => {
  const eps = endpoints(4);
  const withValues = (key: typeof MULTICLUSTER_ATTRIBUTES.queueSize, values: Record<string, number>) => {
    const request = schedulingRequest();
    request.attributes.set(key, new Map(Object.entries(values)));
    return request;
  };

  it('multicluster-queue-scorer: min-max over clusters with a queue size, others 0', () => {
    const r = withValues(MULTICLUSTER_ATTRIBUTES.queueSize, { e0: 10, e1: 0, e2: 5 });
    expect(scoresOf(instantiate(multiclusterQueueScorerPlugin), r, eps)).toEqual([0, 1, 0.5, 0]);
    const equal = withValues(MULTICLUSTER_ATTRIBUTES.queueSize, { e0: 3, e1: 3 });
    expect(scoresOf(instantiate(multiclusterQueueScorerPlugin), equal, eps)).toEqual([1, 1, 0, 0]);
    expect(scoresOf(instantiate(multiclusterQueueScorerPlugin), schedulingRequest(), eps)).toEqual([0, 0, 0, 0]);
  });

  it('multicluster-kv-cache-utilization-scorer: 1 − utilization, clusters without it 0', () => {
    const r = withValues(MULTICLUSTER_ATTRIBUTES.kvCacheUtilization, { e0: 0.25, e2: 1 });
    expect(scoresOf(instantiate(multiclusterKvCacheUtilizationScorerPlugin), r, eps)).toEqual([0.75, 0, 0, 0]);
  });

  it('both reject parameters (llm-d takes none), naming them', () => {
    const load = (type: string) => loadConfig(`${HEAD}plugins:\n- type: ${type}\n  parameters: {threshold: 1}\n`, { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });
    expect(() => load('multicluster-queue-scorer')).toThrow(/plugins\[0\]\.parameters.*threshold/);
    expect(() => load('multicluster-kv-cache-utilization-scorer')).toThrow(/plugins\[0\]\.parameters.*threshold/);
  });
});

describe('multicluster-session-affinity-filter', () => {
  it('pins like session-affinity-filter and reports its own type', () => {
    const eps = endpoints(3);
    const f = instantiate(multiclusterSessionAffinityFilterPlugin, { strategy: 'encoded_endpoint_header' }) as Filter;
    expect(f.type).toBe('multicluster-session-affinity-filter');
    const pinned = schedulingRequest({ request: { headers: { 'x-session-token': encodeSessionToken('e2') } } });
    expect(f.filter(cycleContext(), pinned, eps).map((e) => e.id)).toEqual(['e2']);
    expect(f.filter(cycleContext(), schedulingRequest(), eps)).toHaveLength(3);
    expect(() => instantiate(multiclusterSessionAffinityFilterPlugin, { strategy: 'sticky' })).toThrow(/strategy/);
  });
});

describe('multicluster-file-discovery', () => {
  it('takes host names, and the metricsPort label as the scrape port; file-discovery refuses host names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mc-discovery-'));
    try {
      const file = join(dir, 'clusters.yaml');
      writeFileSync(file, 'endpoints:\n- name: us-east\n  address: epp.us-east.example.com\n  port: "8081"\n  labels: {metricsPort: "9090"}\n- name: eu\n  address: "fd00::7"\n  port: "8081"\n');
      const config = (type: string) => `${HEAD}plugins:\n- type: ${type}\n  name: clusters\n  parameters: {path: ${JSON.stringify(file)}, watchFile: false}\n- type: queue-scorer\ndataLayer:\n  discovery: {pluginRef: clusters}\n`;
      const pool = new EndpointPool();
      const loaded = loadConfig(config('multicluster-file-discovery'), { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
      startDiscovery(loaded, { upsert: (s) => void pool.upsert(s), remove: (id) => void pool.remove(id) });
      expect(pool.list().map((e) => [e.id, e.address, e.metricsPort])).toEqual([
        ['default/us-east', 'epp.us-east.example.com:8081', 9090],
        ['default/eu', '[fd00::7]:8081', 8081],
      ]);
      const single = loadConfig(config('file-discovery'), { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });
      expect(() => startDiscovery(single, { upsert: () => undefined, remove: () => undefined })).toThrow(expect.objectContaining({ field: 'endpoints[0].address' }) as Error);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
