import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { EndpointPool, NOT_ACTED_ON_METRIC, createDefaultRegistry, loadConfig, recordNotActedOn } from '@switchyard/core';
import { formatNotActedOn } from '@switchyard/core/internal';

const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';
const load = (text: string) => loadConfig(text, { registry: createDefaultRegistry(), pool: new EndpointPool() });
const messageOf = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
};

describe('parameters llm-d accepts but Switchyard does not act on', () => {
  const text = `${HEAD}plugins:\n- type: active-request-scorer\n  parameters:\n    idleThreshold: 2\n    requestTimeout: 2m\n    inFlightLoadProducerName: my-load\n`;

  it('load, and are reported once per plugin and parameter with the reason', () => {
    const config = load(text);
    expect(config.notActedOn.map((p) => [p.plugin, p.type, p.parameter])).toEqual([
      ['active-request-scorer', 'active-request-scorer', 'inFlightLoadProducerName'],
      ['active-request-scorer', 'active-request-scorer', 'requestTimeout'],
    ]);
    const line = formatNotActedOn(config.notActedOn[1] as (typeof config.notActedOn)[number]);
    expect(line).toContain('parameter requestTimeout is accepted but not acted on');
    expect(line).toContain('active-request-scorer');
  });

  it('stay in the printed effective config, which loads back with the same report', () => {
    const config = load(text);
    const printed = config.printEffectiveConfig();
    expect(printed).toContain('requestTimeout: 2m');
    expect(printed).toContain('idleThreshold: 2');
    expect(load(printed).notActedOn).toEqual(config.notActedOn);
  });

  it('are exposed as a gauge per parameter', async () => {
    const registry = new Registry();
    recordNotActedOn(registry, load(text).notActedOn);
    recordNotActedOn(registry, load(text).notActedOn);
    const exposition = await registry.metrics();
    expect(exposition).toContain(`${NOT_ACTED_ON_METRIC}{plugin_name="active-request-scorer",plugin_type="active-request-scorer",parameter="requestTimeout"} 1`);
    expect(exposition.match(new RegExp(`^${NOT_ACTED_ON_METRIC}\\{`, 'gm'))).toHaveLength(2);
  });

  it('include llm-d dataLayer fields without an effect here', () => {
    const config = load(`${HEAD}dataLayer:\n  crossReplicaSyncInterval: 200ms\n  peerDiscovery:\n    pluginRef: p\n`);
    expect(config.notActedOn.map((p) => `${p.type}.${p.parameter}`)).toEqual(['dataLayer.peerDiscovery']);
  });
});

describe('unknown parameters', () => {
  it('name the field and suggest the closest known one', () => {
    expect(messageOf(() => load(`${HEAD}plugins:\n- type: active-request-scorer\n  parameters:\n    idleTreshold: 2\n`))).toBe(
      'plugins[0].parameters.idleTreshold: unknown parameter (did you mean "idleThreshold"?)',
    );
  });

  it('suggest accepted-not-acted-on names too', () => {
    expect(messageOf(() => load(`${HEAD}plugins:\n- type: active-request-scorer\n  parameters:\n    requestTimout: 2m\n`))).toContain('(did you mean "requestTimeout"?)');
  });

  it('suggest inside nested objects, and nothing when no name is close', () => {
    expect(messageOf(() => load(`${HEAD}plugins:\n- type: disagg-profile-handler\n  parameters:\n    profiles:\n      decod: d\n`))).toContain(
      'plugins[0].parameters.profiles.decod: unknown parameter (did you mean "decode"?)',
    );
    expect(messageOf(() => load(`${HEAD}plugins:\n- type: queue-scorer\n  parameters:\n    zzz: 1\n`))).toBe('plugins[0].parameters.zzz: unknown parameter');
  });
});
