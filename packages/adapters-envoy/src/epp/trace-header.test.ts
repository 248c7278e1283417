import { DECISION_TRACE_HEADER } from '@switchyard/core';
import { runEppCli, startEpp, type RunningEpp } from '@switchyard/envoy';
import { describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../test-support/transports.js';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { reqBody, reqHeaders, respHeaders, setHeaders } from '../test-support/wire-helpers.js';

/** Sends one request and its response headers through the EPP; returns the headers set on the client's response. */
async function responseHeadersSet(port: number): Promise<Record<string, string>> {
  const envoy = new EnvoyEmulator(port);
  try {
    const s = envoy.open();
    s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions', 'x-request-id': 'trace-1' }));
    s.send(reqBody('{"model":"m","prompt":"where did this go"}', true));
    await s.waitFor(2);
    s.send(respHeaders({ ':status': '200', 'content-type': 'application/json' }, true));
    const replies = await s.waitFor(3);
    s.halfClose();
    await s.ended;
    return setHeaders(replies[2]?.response_headers?.response.header_mutation);
  } finally {
    envoy.close();
  }
}

describe.each(TRANSPORTS)('%s transport', (transport) => {
  describe('the decision trace response header', () => {
    it('is added by switchyard-epp --decision-trace-header and names the picked endpoint', async () => {
      const stop = new AbortController();
      const epp = await new Promise<RunningEpp>((resolve, reject) => {
        runEppCli(['--endpoints', '127.0.0.1:1,127.0.0.1:2', '--host', '127.0.0.1', '--grpc-port', '0', '--metrics-port', '0', '--decision-trace-header', '--log-level', 'silent', '--transport', transport], {
          stdout: () => undefined,
          stderr: () => undefined,
          signal: stop.signal,
          onStarted: resolve,
        }).catch(reject);
      });
      try {
        const trace = (await responseHeadersSet(epp.server.port))[DECISION_TRACE_HEADER];
        expect(trace).toMatch(/^model=m;priority=0;fairness=default-flow;profile=[^;]+;candidates=2;picked=127\.0\.0\.1:[12];.*scores=127\.0\.0\.1:[12]:/);
      } finally {
        stop.abort();
        await epp.close();
      }
    });

    it('follows console.traceHeader in the config, and is absent by default', async () => {
      const on = await startEpp({ transport, endpoints: ['10.9.0.1:8000'], configText: 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nconsole:\n  traceHeader: true\n', host: '127.0.0.1', grpcPort: 0, metricsPort: false, scrapeIntervalMs: false, log: () => undefined });
      try {
        expect((await responseHeadersSet(on.server.port))[DECISION_TRACE_HEADER]).toContain('picked=10.9.0.1:8000');
      } finally {
        await on.close();
      }
      const off = await startEpp({ transport, endpoints: ['10.9.0.1:8000'], host: '127.0.0.1', grpcPort: 0, metricsPort: false, scrapeIntervalMs: false, log: () => undefined });
      try {
        expect((await responseHeadersSet(off.server.port))[DECISION_TRACE_HEADER]).toBeUndefined();
      } finally {
        await off.close();
      }
    });
  });
});
