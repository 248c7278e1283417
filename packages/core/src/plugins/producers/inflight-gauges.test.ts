import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { Attributes, inFlightLoadProducerPlugin, type Endpoint, type RequestLifecycle } from '@switchyard/core';
import { cycleContext, instantiate, poolOf, resultOf, schedulingRequest } from '@switchyard/core/testing';

/** `name{labels} value` lines of one family, sorted. */
async function series(registry: Registry, name: string): Promise<string[]> {
  const m = registry.getSingleMetric(name);
  if (m === undefined) return [];
  const { values } = await m.get();
  return values.map((v) => `${Object.entries(v.labels).map(([k, x]) => `${k}=${String(x)}`).join(',')} ${v.value}`).sort();
}

describe('inflight-load-producer gauges (llm_d_epp_inflight_requests / _tokens)', () => {
  it("charge every profile's first target at PreRequest and release as llm-d does", async () => {
    const registry = new Registry();
    const pool = poolOf(['ns/decode-0', 'ns/prefill-0']);
    const [decode, prefill] = pool.list() as [Endpoint, Endpoint];
    const producer = instantiate(inFlightLoadProducerPlugin, {}, { pool, metrics: registry, name: 'load' }) as RequestLifecycle;
    const request = schedulingRequest({ fairnessId: 'tenant-a', priority: 2 });
    request.attributes.set(Attributes.promptTokenCount, 100);
    // The decode endpoint holds 64 of the 100 prompt tokens.
    request.attributes.set(Attributes.prefixMatch, new Map([[decode.id, { matchBlocks: 4, totalBlocks: 7, blockSizeTokens: 16, cachedBlocks: 4 }]]));

    producer.preRequest?.(cycleContext(), request, resultOf(decode, { prefill }), {});
    const at = (name: string, value: number): string => `endpoint_name=${name},namespace=ns,producer_name=load,fairness_id=tenant-a,priority=2 ${value}`;
    expect(await series(registry, 'llm_d_epp_inflight_requests')).toEqual([at('decode-0', 1), at('prefill-0', 1)]);
    expect(await series(registry, 'llm_d_epp_inflight_tokens')).toEqual([at('decode-0', 36), at('prefill-0', 100)]);

    // First byte: prefill is done; decode keeps the request but its prompt is processed.
    producer.onResponseStart?.(request, { endpoint: decode, status: 200, at: 0 });
    expect(await series(registry, 'llm_d_epp_inflight_requests')).toEqual([at('decode-0', 1), at('prefill-0', 0)]);
    expect(await series(registry, 'llm_d_epp_inflight_tokens')).toEqual([at('decode-0', 0), at('prefill-0', 0)]);

    producer.onComplete?.(request, { kind: 'success' }, decode);
    expect(await series(registry, 'llm_d_epp_inflight_requests')).toEqual([at('decode-0', 0), at('prefill-0', 0)]);
    // A second completion (or one without a PreRequest) releases nothing twice.
    producer.onComplete?.(request, { kind: 'success' }, decode);
    producer.onComplete?.(schedulingRequest(), { kind: 'cancelled' }, undefined);
    expect(await series(registry, 'llm_d_epp_inflight_requests')).toEqual([at('decode-0', 0), at('prefill-0', 0)]);
  });

  it('a request cancelled before its first byte releases everything; two producers share one registry', async () => {
    const registry = new Registry();
    const pool = poolOf(['10.0.0.1:8000']);
    const [a] = pool.list() as [Endpoint];
    const first = instantiate(inFlightLoadProducerPlugin, {}, { pool, metrics: registry, name: 'p1' }) as RequestLifecycle;
    const second = instantiate(inFlightLoadProducerPlugin, {}, { pool, metrics: registry, name: 'p2' }) as RequestLifecycle;
    const r1 = schedulingRequest();
    r1.attributes.set(Attributes.promptTokenCount, 10);
    first.preRequest?.(cycleContext(), r1, resultOf(a), {});
    second.preRequest?.(cycleContext(), r1, resultOf(a), {});
    expect(await series(registry, 'llm_d_epp_inflight_tokens')).toEqual([
      `endpoint_name=10.0.0.1:8000,namespace=,producer_name=p1,fairness_id=${r1.fairnessId},priority=${r1.priority} 10`,
      `endpoint_name=10.0.0.1:8000,namespace=,producer_name=p2,fairness_id=${r1.fairnessId},priority=${r1.priority} 10`,
    ]);
    first.onComplete?.(r1, { kind: 'cancelled' }, undefined);
    second.onComplete?.(r1, { kind: 'cancelled' }, undefined);
    expect((await series(registry, 'llm_d_epp_inflight_requests')).every((s) => s.endsWith(' 0'))).toBe(true);
    expect((await series(registry, 'llm_d_epp_inflight_tokens')).every((s) => s.endsWith(' 0'))).toBe(true);
  });

  it('without a registry the producer records nothing and has no lifecycle hooks', () => {
    const producer = instantiate(inFlightLoadProducerPlugin) as RequestLifecycle;
    expect(producer.preRequest).toBeUndefined();
  });
});
