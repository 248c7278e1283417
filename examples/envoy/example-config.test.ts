import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DESTINATION_HEADER, ENVOY_LB_NAMESPACE, SUBSET_HINT_NAMESPACE } from '@switchyard/core';
import { splitEndpoints, startEpp } from '@switchyard/envoy';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const here = (f: string): string => fileURLToPath(new URL(f, import.meta.url));

/** Finds the first object with key `k` anywhere inside `v`. */
function find(v: unknown, k: string): unknown {
  if (typeof v !== 'object' || v === null) return undefined;
  if (k in v) return (v as Record<string, unknown>)[k];
  for (const x of Object.values(v)) {
    const r = find(x, k);
    if (r !== undefined) return r;
  }
  return undefined;
}

describe('examples/envoy', () => {
  it('the EPP files load: config, endpoints, objectives', async () => {
    const lines: string[] = [];
    const epp = await startEpp({
      configText: await readFile(here('./epp-config.yaml'), 'utf8'),
      resourcesText: await readFile(here('./objectives.yaml'), 'utf8'),
      endpoints: splitEndpoints(await readFile(here('./endpoints.txt'), 'utf8')),
      host: '127.0.0.1',
      grpcPort: 0,
      metricsPort: false,
      scrapeIntervalMs: false,
      log: (l) => lines.push(l),
    });
    try {
      expect(epp.pool.size).toBe(3);
      expect(epp.flowController).toBeDefined();
      expect(epp.effective).toMatchObject({ objectives: 2, flowControl: true });
      expect(lines.join('\n')).toContain('prefix-cache-scorer');
    } finally {
      await epp.close();
    }
  });

  it('envoy.yaml speaks the endpoint-picker protocol the EPP expects', async () => {
    const doc: unknown = parse(await readFile(here('./envoy.yaml'), 'utf8'));
    expect(find(doc, 'processing_mode')).toEqual({
      request_header_mode: 'SEND',
      response_header_mode: 'SEND',
      request_body_mode: 'FULL_DUPLEX_STREAMED',
      response_body_mode: 'FULL_DUPLEX_STREAMED',
      request_trailer_mode: 'SEND',
      response_trailer_mode: 'SEND',
    });
    expect(find(doc, 'original_dst_lb_config')).toEqual({ use_http_header: true, http_header_name: DESTINATION_HEADER });
    expect(find(doc, 'receiving_namespaces')).toEqual({ untyped: [ENVOY_LB_NAMESPACE] });
    expect(find(doc, 'forwarding_namespaces')).toEqual({ untyped: [ENVOY_LB_NAMESPACE, SUBSET_HINT_NAMESPACE] });
    expect(find(doc, 'grpc_health_check')).toEqual({ service_name: 'envoy.service.ext_proc.v3.ExternalProcessor' });
    const clusters = find(doc, 'clusters') as { name: string }[];
    const epp = clusters.find((c) => c.name === 'switchyard-epp');
    expect(find(epp, 'port_value')).toBe(9002); // switchyard-epp's default --grpc-port
    expect(find(doc, 'envoy_grpc')).toEqual({ cluster_name: 'switchyard-epp' });
  });
});
