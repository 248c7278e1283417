import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EndpointPool, ManualClock, createDefaultRegistry, definePlugin, loadConfig, type LoadedConfig, type PluginDefinition } from '@switchyard/core';
import { registerPrefixIndexPlugins } from '@switchyard/prefix-index';

// Real llm-d EndpointPickerConfig files, kept in core next to the loader they exercise.
const dir = new URL('../../../core/src/config/fixtures/llm-d/', import.meta.url);
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();

// Flow-control policies come from @switchyard/flow-control; a stand-in with the same type names
// keeps this test inside the prefix-index package.
const standIn = (type: string): PluginDefinition => definePlugin({ type, parameters: z.strictObject({}), create: (_p, ctx) => ({ type, name: ctx.name }) });

const loaded: LoadedConfig[] = [];
afterAll(async () => {
  for (const c of loaded) for (const p of c.plugins.values()) await (p as { close?: () => unknown }).close?.();
});

function load(name: string): LoadedConfig {
  const registry = registerPrefixIndexPlugins(createDefaultRegistry().registerAll(['global-strict-fairness-policy', 'fcfs-ordering-policy', 'static-usage-limit-policy'].map(standIn)));
  const config = loadConfig(readFileSync(new URL(name, dir), 'utf8'), { registry, pool: new EndpointPool(), clock: new ManualClock() });
  loaded.push(config);
  return config;
}

describe('real llm-d configs', () => {
  it('has fixtures to check', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(4);
  });

  it.each(fixtures)('%s loads unchanged', (name) => {
    const config = load(name);
    expect(config.profiles.size).toBeGreaterThan(0);
    // The printed effective config loads back to the same plugin set.
    const again = loadConfig(config.printEffectiveConfig(), { registry: registerPrefixIndexPlugins(createDefaultRegistry()), pool: new EndpointPool(), clock: new ManualClock() });
    loaded.push(again);
    expect([...again.plugins.keys()].sort()).toEqual([...config.plugins.keys()].sort());
  });

  it('exposes the metrics source settings of the inference-scheduling config', () => {
    const config = load('inference-scheduling-default-plugins.yaml');
    expect(config.dataLayerSettings.scrape).toMatchObject({ source: 'metrics-data-source', scheme: 'http', path: '/metrics', insecureSkipVerify: true, extractors: ['core-metrics-extractor'] });
    expect(config.profiles.get('default')?.scorers.map((s) => [s.scorer.type, s.weight])).toEqual([
      ['queue-scorer', 2],
      ['kv-cache-utilization-scorer', 2],
      ['prefix-cache-scorer', 3],
    ]);
  });

  it('wires the precise producer as an extractor of endpoint notifications', () => {
    const config = load('precise-prefix-data-layer.yaml');
    expect(config.dataLayerSettings.metricsSources).toHaveLength(1);
    expect(config.plugins.get('endpoint-notification-source')?.type).toBe('endpoint-notification-source');
    expect(config.plugins.get('precise-prefix-cache-producer')?.type).toBe('precise-prefix-cache-producer');
  });
});
