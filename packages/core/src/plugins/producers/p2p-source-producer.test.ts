import { describe, expect, it } from 'vitest';
import { Attributes, EndpointPool, ManualClock, KV_CACHE_SOURCE_HEADER, bestMatchAttribute, chooseKvSource, createDefaultRegistry, loadConfig, p2pSourceProducerPlugin, prefixMatchAttribute, type DataProducer, type Endpoint, type PrefixMatchInfo, type RequestLifecycle } from '@switchyard/core';
import { cycleContext, endpoints, instantiate, resultOf, schedulingRequest } from '@switchyard/core/testing';
import { standInPrefixProducer } from '../../config/test-standins.js';

const BLOCK = 16;
const info = (cachedBlocks: number): PrefixMatchInfo => ({ matchBlocks: cachedBlocks, totalBlocks: 10, blockSizeTokens: BLOCK, cachedBlocks });

function run(parameters: Record<string, unknown>, cached: readonly number[], computing: number, opts: { prefill?: number; key?: string; waiting?: readonly number[] } = {}) {
  const eps = endpoints(cached.length, (i) => ({ waitingQueueSize: opts.waiting?.[i] ?? 0 }));
  const p = instantiate(p2pSourceProducerPlugin, parameters) as DataProducer & RequestLifecycle;
  const request = schedulingRequest({ request: { id: 'req-7' } });
  request.attributes.set(opts.key === undefined ? Attributes.prefixMatch : prefixMatchAttribute(opts.key), new Map(eps.map((e, i) => [e.id, info(cached[i] ?? 0)])));
  void p.produce(cycleContext(), request, eps);
  const headers: Record<string, string> = {};
  const others = opts.prefill === undefined ? {} : { prefill: eps[opts.prefill] };
  p.preRequest?.(cycleContext(), request, resultOf(eps[computing] as Endpoint, others), headers);
  return { eps, headers, best: request.attributes.get(bestMatchAttribute()) };
}

describe('p2p-source-producer', () => {
  it('names the endpoint holding the most cached tokens when the computing one holds fewer', () => {
    const { eps, headers, best } = run({}, [0, 8, 2], 0);
    expect(best?.id).toBe('e1');
    expect(headers[KV_CACHE_SOURCE_HEADER]).toBe(eps[1]?.address);
  });

  it('sets nothing when the computing endpoint is the best source or the gain is under minCachedTokenDelta', () => {
    expect(run({}, [0, 8, 2], 1).headers).toEqual({});
    // 8 − 6 blocks = 32 tokens: enough for 32, not for 33.
    expect(run({ minCachedTokenDelta: 32 }, [6, 8], 0).headers[KV_CACHE_SOURCE_HEADER]).toBeDefined();
    expect(run({ minCachedTokenDelta: 33 }, [6, 8], 0).headers).toEqual({});
    expect(run({}, [0, 0, 0], 0).headers).toEqual({});
  });

  it('compares against the prefillProfileName profile\'s pick when that profile ran', () => {
    // Primary (decode) e0 holds nothing, prefill e1 holds the most: no transfer needed.
    expect(run({}, [0, 8], 0, { prefill: 1 }).headers).toEqual({});
    expect(run({ prefillProfileName: 'other' }, [0, 8], 0, { prefill: 1 }).headers[KV_CACHE_SOURCE_HEADER]).toBeDefined();
  });

  it('reads the prefix producer named by prefixMatchInfoProducerName', () => {
    expect(run({ prefixMatchInfoProducerName: 'precise' }, [0, 8], 0, { key: 'precise' }).best?.id).toBe('e1');
    expect(run({ prefixMatchInfoProducerName: 'precise' }, [0, 8], 0).best).toBeUndefined();
  });

  it('draws among the candidates within one block of the best, weighted by 1/(1+queue), deterministically per request id', () => {
    const eps = endpoints(3, (i) => ({ waitingQueueSize: [0, 0, 1000][i] ?? 0 }));
    const cached = (e: Endpoint): number => ({ e0: 100, e1: 90, e2: 100 })[e.id] ?? 0;
    const picks = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      const id = chooseKvSource(`r${i}`, eps, cached, BLOCK)?.id ?? 'none';
      picks.set(id, (picks.get(id) ?? 0) + 1);
      expect(chooseKvSource(`r${i}`, eps, cached, BLOCK)?.id).toBe(id);
    }
    // e1 is within a block of the best; e2's long queue makes it almost never chosen.
    expect((picks.get('e0') ?? 0) + (picks.get('e1') ?? 0)).toBeGreaterThan(390);
    expect(picks.get('e0')).toBeGreaterThan(100);
    expect(picks.get('e1')).toBeGreaterThan(100);
    expect(chooseKvSource('r', eps, cached, 5)?.id).not.toBe('e1');
  });

  it('loads with every llm-d parameter (bringing the default prefix producer) and names a bad one', () => {
    const registry = createDefaultRegistry();
    registry.register(standInPrefixProducer);
    const load = (params: string) => loadConfig(`apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: p2p-source-producer\n  parameters: ${params}\n- type: queue-scorer\n`, { registry, pool: new EndpointPool(), clock: new ManualClock() });
    expect(load('{}').plugins.has('approx-prefix-cache-producer')).toBe(true);
    expect(() => load('{prefixMatchInfoProducerName: "", minCachedTokenDelta: 1, prefillProfileName: prefill}')).not.toThrow();
    expect(() => load('{minCachedTokenDelta: 0}')).toThrow(/plugins\[0\]\.parameters\.minCachedTokenDelta/);
    expect(() => load('{minCachedTokenDelt: 2}')).toThrow(/did you mean "minCachedTokenDelta"/);
  });
});
