import { describe, expect, it } from 'vitest';
import { EndpointPool, createDefaultRegistry, loadConfig, type Plugin } from '@switchyard/core';
import { settle } from '@switchyard/core/testing';
import {
  PRIORITY_THEN_TIME_EVICTION_ORDER,
  SHEDDABLE_EVICTION_FILTER,
  flowControlPack,
  flowControllerForConfig,
  type EvictionFilter,
  type EvictionOrderPolicy,
} from '@switchyard/flow-control';
import { harness, request, track } from '../test-support/flow-harness.js';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\nfeatureGates:\n- flowControl\n';

function load(yaml: string) {
  const pool = new EndpointPool();
  pool.add({ address: '10.0.0.1:8000' });
  const loaded = loadConfig(yaml, { registry: createDefaultRegistry().registerPack(flowControlPack), pool });
  return { loaded, fc: flowControllerForConfig(loaded, { pool }) };
}

/** Dispatches sheddable requests at -20, -10, -10 (in that order), then asks for room at `blocked`. */
async function revokedOrder(plugins: ReadonlyMap<string, Plugin>, blocked = 0): Promise<number[]> {
  const { fc, clock } = harness(3, { config: { enableEviction: true }, plugins });
  const granted = [-20, -10, -10].map((priority) => {
    clock.advance(1);
    return track(fc, request({ priority }));
  });
  await settle();
  const revoked: number[] = [];
  fc.on('revoked', (r) => revoked.push(granted.findIndex((g) => g.request.id === r.request.id)));
  track(fc, request({ priority: blocked }));
  await settle();
  return revoked;
}

describe('eviction plugins', () => {
  it('load from a config with no parameters and become the evictor’s filter and order', () => {
    const yaml = `${HEAD}plugins:\n- type: ${SHEDDABLE_EVICTION_FILTER}\n- type: ${PRIORITY_THEN_TIME_EVICTION_ORDER}\n- type: queue-scorer\nflowControl:\n  enableEviction: true\n`;
    const { loaded, fc } = load(yaml);
    expect(fc?.config.evictionFilter).toBe(loaded.plugins.get(SHEDDABLE_EVICTION_FILTER));
    expect(fc?.config.evictionOrderPolicy).toBe(loaded.plugins.get(PRIORITY_THEN_TIME_EVICTION_ORDER));
  });

  it('are the defaults when the config lists neither, as llm-d builds them internally', () => {
    const { fc } = load(`${HEAD}plugins:\n- type: queue-scorer\nflowControl:\n  enableEviction: true\n`);
    expect(fc?.config.evictionFilter.type).toBe(SHEDDABLE_EVICTION_FILTER);
    expect(fc?.config.evictionOrderPolicy.type).toBe(PRIORITY_THEN_TIME_EVICTION_ORDER);
  });

  it('reject any parameter, naming it', () => {
    for (const type of [SHEDDABLE_EVICTION_FILTER, PRIORITY_THEN_TIME_EVICTION_ORDER]) {
      expect(() => load(`${HEAD}plugins:\n- type: ${type}\n  parameters:\n    maxVictims: 3\n- type: queue-scorer\n`)).toThrow(/maxVictims/);
    }
  });

  it('by default revoke lowest priority first, then the most recently dispatched; never priority ≥ 0', async () => {
    expect(await revokedOrder(new Map())).toEqual([0, 2]);
    // A request blocked at -10 may only displace lower bands.
    expect(await revokedOrder(new Map(), -10)).toEqual([0]);
  });

  it('act through the evictor: a configured order and filter change who is revoked', async () => {
    const oldestFirst: EvictionOrderPolicy = { kind: 'eviction-order-policy', type: 'oldest-first', name: PRIORITY_THEN_TIME_EVICTION_ORDER, compare: (a, b) => a.dispatchedAt - b.dispatchedAt };
    expect(await revokedOrder(new Map([[PRIORITY_THEN_TIME_EVICTION_ORDER, oldestFirst]]))).toEqual([0, 1]);
    const onlyMinusTen: EvictionFilter = { kind: 'eviction-filter', type: 'only-minus-ten', name: SHEDDABLE_EVICTION_FILTER, eligible: (c) => c.priority === -10 };
    expect(await revokedOrder(new Map([[SHEDDABLE_EVICTION_FILTER, onlyMinusTen]]))).toEqual([2, 1]);
  });
});
