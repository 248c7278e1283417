import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createDefaultRegistry, isTopologyExtractor, loadConfig, topologyAttribute } from '@switchyard/core';

const doc = (params = ''): string => `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: topology-extractor
${params}
- type: queue-scorer
`;

describe('topology-extractor', () => {
  it("reads the four levels from endpoint labels with llm-d's default keys", () => {
    const pool = new EndpointPool();
    const a = pool.add({ id: 'a', address: '10.0.0.1:8000', labels: { 'kubernetes.io/hostname': 'node-1', 'topology.kubernetes.io/zone': 'eu-1a', 'topology.kubernetes.io/region': 'eu-1' } });
    const b = pool.add({ id: 'b', address: '10.0.0.2:8000' });
    const loaded = loadConfig(doc(), { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
    const t = loaded.plugins.get('topology-extractor');
    if (t === undefined || !isTopologyExtractor(t)) throw new Error('missing');
    expect(t.of(a)).toEqual({ hostname: 'node-1', rack: '', zone: 'eu-1a', region: 'eu-1' });
    expect(t.of(b)).toBeUndefined();
    expect(t.produces).toEqual([topologyAttribute().name]);
    expect(topologyAttribute().name).toBe('Topology/topology-extractor');
  });

  it('uses the configured label keys', () => {
    const pool = new EndpointPool();
    const a = pool.add({ id: 'a', address: '10.0.0.1:8000', labels: { rack: 'r7', 'kubernetes.io/hostname': 'ignored' } });
    const loaded = loadConfig(doc('  parameters: {rack: rack, hostname: ""}'), { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
    const t = loaded.plugins.get('topology-extractor');
    if (t === undefined || !isTopologyExtractor(t)) throw new Error('missing');
    expect(t.of(a)).toEqual({ hostname: '', rack: 'r7', zone: '', region: '' });
  });

  it('rejects unknown parameters naming them', () => {
    expect(() => loadConfig(doc('  parameters: {zones: x}'), { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() })).toThrow(/zones/);
  });
});
