import { describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../test-support/transports.js';
import type { DecisionTracer, ParseTiming } from '@switchyard/core';
import { startEpp } from '@switchyard/envoy';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { reqBody, reqHeaders } from '../test-support/wire-helpers.js';

describe.each(TRANSPORTS)('%s transport', (transport) => {
  describe('the EPP reports its body parse to tracing', () => {
    it('passes when parsing started and ended, before the pick', async () => {
      const begun: { id: string; atMs: number; parsed: ParseTiming | undefined }[] = [];
      const tracer: DecisionTracer = {
        begin(request, _pool, atMs, parsed) {
          begun.push({ id: request.id, atMs, parsed });
          return { decided: () => undefined, rejected: () => undefined, ended: () => undefined };
        },
      };
      const epp = await startEpp({ transport, endpoints: ['10.9.0.1:8000'], host: '127.0.0.1', grpcPort: 0, metricsPort: 0, scrapeIntervalMs: false, log: () => undefined, tracer });
      const envoy = new EnvoyEmulator(epp.server.port);
      try {
        const s = envoy.open();
        s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions', 'x-request-id': 'epp-parse-1' }));
        s.send(reqBody('{"model":"m","prompt":"hello"}', true));
        await s.waitFor(1);
        s.cancel();
        await s.ended;
        expect(begun.map((b) => b.id)).toEqual(['epp-parse-1']);
        const parsed = begun[0]?.parsed;
        expect(parsed).toBeDefined();
        expect(parsed?.startedAt).toBeLessThanOrEqual(parsed?.endedAt ?? -1);
        expect(parsed?.endedAt).toBeLessThanOrEqual(begun[0]?.atMs ?? -1);
      } finally {
        envoy.close();
        await epp.close();
      }
    });
  });
});
