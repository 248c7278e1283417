/*
 * llm-d's response-path request-control hooks through both CLIs: what a client (or GAIE's
 * conformance test) sees on the response.
 */
import { describe, expect, it } from 'vitest';
import { runGatewayCli } from '@switchyard/express';
import type { WireStruct } from '../packages/adapters-envoy/src/wire/messages.js';
import { reqBody, reqHeaders, respHeaders, served, setHeaders } from '../packages/adapters-envoy/src/test-support/wire-helpers.js';
import { completionServerForFile, startEppCli, withConfigFile, type RunningEppCli } from './support/both-clis.js';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';
const VERIFIER = `${HEAD}plugins:\n- type: destination-endpoint-served-verifier\n- type: queue-scorer\n`;
const BODY = '{"model":"m","prompt":"x"}';

const server = completionServerForFile();

/** One request through switchyard-epp; the response headers Envoy reports carry `metadata`. */
async function eppResponseHeaders(epp: RunningEppCli, metadata: Record<string, WireStruct> | undefined): Promise<Record<string, string>> {
  const s = epp.envoy.open();
  s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions', 'content-type': 'application/json' }));
  s.send(reqBody(BODY, true));
  await s.waitFor(2);
  s.send(respHeaders({ ':status': '200', 'content-type': 'application/json' }, false, metadata));
  const replies = await s.waitFor(3);
  s.cancel();
  await s.ended;
  return setHeaders(replies[2]?.response_headers?.response.header_mutation);
}

describe('destination-endpoint-served-verifier', () => {
  it('switchyard-epp: echoes envoy.lb x-gateway-destination-endpoint-served, or says what is missing', async () => {
    await withConfigFile(VERIFIER, async (file) => {
      const epp = await startEppCli(['--config', file, '--endpoints', server.address]);
      try {
        expect(await eppResponseHeaders(epp, served('10.9.8.7:3000'))).toEqual({ 'x-conformance-test-served-endpoint': '10.9.8.7:3000' });
        expect(await eppResponseHeaders(epp, undefined)).toEqual({ 'x-conformance-test-served-endpoint': 'fail: missing envoy lb metadata' });
        expect(await eppResponseHeaders(epp, { 'envoy.lb': { fields: {} } })).toEqual({ 'x-conformance-test-served-endpoint': 'fail: missing destination endpoint served metadata' });
      } finally {
        await epp.close();
      }
    });
  });

  it('switchyard-gateway: reports the endpoint it forwarded to', async () => {
    await withConfigFile(VERIFIER, async (file) => {
      const r = await runGatewayCli(['--config', file, '--endpoints', server.address, '--host', '127.0.0.1', '--port', '0', '--log-level', 'silent'], { out: () => undefined, err: () => undefined });
      if (r.kind !== 'running') throw new Error(`switchyard-gateway exited with ${r.code}`);
      try {
        const res = await fetch(`${r.url}/v1/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
        await res.text();
        expect(res.status).toBe(200);
        expect(res.headers.get('x-conformance-test-served-endpoint')).toBe(server.address);
      } finally {
        await r.gateway.close();
      }
    });
  });

  it('without the verifier neither CLI sets the header', async () => {
    await withConfigFile(`${HEAD}plugins:\n- type: queue-scorer\n`, async (file) => {
      const epp = await startEppCli(['--config', file, '--endpoints', server.address]);
      try {
        expect(await eppResponseHeaders(epp, served('10.9.8.7:3000'))).toEqual({});
      } finally {
        await epp.close();
      }
    });
  });
});
