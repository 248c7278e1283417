import { describe, expect, it } from 'vitest';
import { parseEppArgs } from '@switchyard/envoy';
import { forwardHeadersResponse } from '../stream/forward-headers.js';
import { EndpointPool } from '@switchyard/core';
import { EPP_USAGE } from './args.js';

describe("switchyard-epp takes llm-d's EPP flags", () => {
  it('maps --config-file, --cert-path and --refresh-metrics-interval to ours and keeps llm-d defaults', () => {
    const a = parseEppArgs(['--config-file', 'c.yaml', '--cert-path', '/certs/', '--refresh-metrics-interval=20ms', '--endpoints', '10.0.0.1:8000']);
    expect([a.config, a.tlsCert, a.tlsKey, a.scrapeIntervalMs, a.grpcPort, a.metricsPort]).toEqual(['c.yaml', '/certs/tls.crt', '/certs/tls.key', 50, 9002, 9090]);
  });

  it('reads --config-text and --emit-endpoint-scores, and names the flags it does not act on', () => {
    const a = parseEppArgs(['--config-text', 'kind: EndpointPickerConfig', '--emit-endpoint-scores', '--health-checking=false', '--v', '4']);
    expect(a.llmd.configText).toBe('kind: EndpointPickerConfig');
    expect(a.llmd.emitEndpointScores).toBe(true);
    expect(a.llmd.notActedOn.map((l) => l.split(':')[0])).toEqual(['--health-checking', '--v']);
    expect(parseEppArgs(['--emit-endpoint-scores=false']).llmd.emitEndpointScores).toBe(false);
  });

  it('acts on --enable-grpc-stream-metrics (off unless given)', () => {
    expect(parseEppArgs([]).llmd.grpcStreamMetrics).toBe(false);
    const on = parseEppArgs(['--enable-grpc-stream-metrics']).llmd;
    expect([on.grpcStreamMetrics, on.notActedOn]).toEqual([true, []]);
    expect(parseEppArgs(['--enable-grpc-stream-metrics=false']).llmd.grpcStreamMetrics).toBe(false);
  });

  it('rejects what llm-d rejects, naming the flag', () => {
    expect(() => parseEppArgs(['--total-queued-requests-metric', 'x'])).toThrow(/--total-queued-requests-metric.*engineConfigs/);
    expect(() => parseEppArgs(['--config-text', 'x', '--config', 'y'])).toThrow(/--config-text/);
    expect(() => parseEppArgs(['--secure-serving=maybe'])).toThrow(/--secure-serving/);
    expect(() => parseEppArgs(['--refresh-metrics-interval', 'soon'])).toThrow(/--refresh-metrics-interval/);
    expect(() => parseEppArgs(['--no-such-flag'])).toThrow(/no-such-flag/);
  });

  it('lists both sets of names in --help', () => {
    for (const flag of ['--config ', '--config-file', '--config-text', '--grpc-health-port', '--emit-endpoint-scores', '--enable-grpc-stream-metrics', '--pool-name']) expect(EPP_USAGE).toContain(flag);
  });
});

describe('x-gateway-destination-endpoint-scores', () => {
  const pool = new EndpointPool();
  const a = pool.add({ address: '10.0.0.1:8000' });
  const plan = { targets: [a], decisionHeaders: {}, requestHeaders: {}, bodyLength: 2, requestId: undefined, echo: false };
  const lb = (r: ReturnType<typeof forwardHeadersResponse>) => r.dynamic_metadata?.fields?.['envoy.lb']?.structValue?.fields;

  it('is added to envoy.lb metadata only when asked for', () => {
    expect(Object.keys(lb(forwardHeadersResponse(plan)) ?? {})).toEqual(['x-gateway-destination-endpoint']);
    const scored = lb(forwardHeadersResponse({ ...plan, scores: new Map([['10.0.0.1:8000', 2.5], ['10.0.0.2:8000', 1]]) }));
    expect(scored?.['x-gateway-destination-endpoint']?.stringValue).toBe('10.0.0.1:8000');
    expect(scored?.['x-gateway-destination-endpoint-scores']?.structValue?.fields).toEqual({ '10.0.0.1:8000': { numberValue: 2.5 }, '10.0.0.2:8000': { numberValue: 1 } });
  });
});
