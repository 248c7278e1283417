import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/loader.js';
import { EndpointPool } from '../endpoints/pool.js';
import { createDefaultRegistry } from '../registry/default-registry.js';
import { Attributes } from '../scheduling/attributes.js';
import type { DataProducer } from '../scheduling/plugins.js';
import { sharedStateSettingsOf } from './settings.js';

const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';
const load = (text: string, pool = new EndpointPool()) => loadConfig(HEAD + text, { registry: createDefaultRegistry(), pool });

describe("llm-d's cross-replica fields", () => {
  it('dataLayer.crossReplicaSyncInterval is read and rounded up to the 50 ms tick; a bad one is named', () => {
    expect(load('dataLayer:\n  crossReplicaSyncInterval: 120ms\n').dataLayerSettings.crossReplicaSyncIntervalMs).toBe(150);
    expect(load('dataLayer:\n  crossReplicaSyncInterval: 1s\n  crossReplicaSyncerPluginRef: my-syncer\n').dataLayerSettings).toMatchObject({ crossReplicaSyncIntervalMs: 1000, crossReplicaSyncer: 'my-syncer' });
    expect(load('').dataLayerSettings.crossReplicaSyncIntervalMs).toBeUndefined();
    expect(() => load('dataLayer:\n  crossReplicaSyncInterval: soon\n')).toThrow(/dataLayer\.crossReplicaSyncInterval/);
    expect(() => load('dataLayer:\n  crossReplicaSyncInterval: 0s\n')).toThrow(/dataLayer\.crossReplicaSyncInterval/);
  });

  it('inflight-load-producer with syncCrossReplicaState: false reads this replica’s own counts only', () => {
    const pool = new EndpointPool();
    const e = pool.add({ address: '10.0.0.1:8000' });
    pool.addInFlight(e.id, 2, 20);
    pool.setPeerInFlight(e.id, 5, 50);
    const view = (flag: string) => {
      const config = load(`plugins:\n- type: inflight-load-producer\n  parameters:\n    syncCrossReplicaState: ${flag}\n- type: active-request-scorer\n`, pool);
      const producer = config.producers.find((p) => p.type === 'inflight-load-producer') as DataProducer;
      const attributes = new Map<string, unknown>();
      const request = { attributes: { set: (k: { name: string }, v: unknown) => attributes.set(k.name, v) } };
      void producer.produce(undefined as never, request as never, [e]);
      return attributes.get(Attributes.inFlightLoad.name) as { requests(e: unknown): number; tokens(e: unknown): number };
    };
    expect(view('true').requests(e)).toBe(7);
    expect(view('false').requests(e)).toBe(2);
    expect(view('false').tokens(e)).toBe(20);
  });
});

describe('shared-state settings', () => {
  it('come from --redis-url or switchyard.sharedState, with the interval from the section, else dataLayer, else 200 ms', () => {
    expect(sharedStateSettingsOf(HEAD)).toBeUndefined();
    expect(sharedStateSettingsOf(HEAD, 'redis://127.0.0.1:6379')).toMatchObject({ redisUrl: 'redis://127.0.0.1:6379', syncIntervalMs: 200 });
    expect(sharedStateSettingsOf(`${HEAD}dataLayer:\n  crossReplicaSyncInterval: 500ms\n`, 'redis://r:1')?.syncIntervalMs).toBe(500);
    const text = `${HEAD}dataLayer:\n  crossReplicaSyncInterval: 500ms\nswitchyard:\n  sharedState:\n    redisUrl: redis://a:1\n    syncInterval: 70ms\n    maxStaleness: 2s\n    keyPrefix: "fleet1:"\n`;
    expect(sharedStateSettingsOf(text)).toEqual({ redisUrl: 'redis://a:1', syncIntervalMs: 100, maxStalenessMs: 2000, keyPrefix: 'fleet1:', replicaId: undefined });
    expect(sharedStateSettingsOf(text, 'redis://flag:2')?.redisUrl).toBe('redis://flag:2');
    // The section loads with the rest of the document.
    expect(() => load('switchyard:\n  sharedState:\n    redisUrl: redis://a:1\n')).not.toThrow();
  });

  it('name the bad field', () => {
    expect(() => sharedStateSettingsOf(`${HEAD}switchyard:\n  sharedState:\n    redisUrl: http://x\n`)).toThrow(/switchyard\.sharedState\.redisUrl/);
    expect(() => sharedStateSettingsOf(HEAD, 'localhost:6379')).toThrow(/--redis-url/);
    expect(() => sharedStateSettingsOf(`${HEAD}switchyard:\n  sharedState:\n    syncInterval: later\n`, 'redis://a:1')).toThrow(/switchyard\.sharedState\.syncInterval/);
    expect(() => sharedStateSettingsOf(`${HEAD}switchyard:\n  shared: {}\n`)).toThrow(/switchyard/);
    expect(() => load('switchyard:\n  sharedState:\n    bogus: 1\n')).toThrow(/switchyard\.sharedState/);
  });
});
