import { describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../test-support/transports.js';
import { startEpp } from '@switchyard/envoy';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { reqBody, reqHeaders } from '../test-support/wire-helpers.js';

const body = JSON.stringify({ model: 'm', messages: [{ role: 'system', content: 'a prompt nobody sent before '.repeat(40) }, { role: 'user', content: 'hi' }] });

/** The status the EPP answers one `Prefer: if-available` request with (200: routed). */
describe.each(TRANSPORTS)('%s transport', (transport) => {
  async function statusFor(configText: string): Promise<number> {
    const epp = await startEpp({ transport, endpoints: ['10.9.0.1:8000'], configText, host: '127.0.0.1', grpcPort: 0, metricsPort: 0, scrapeIntervalMs: false, log: () => undefined });
    const envoy = new EnvoyEmulator(epp.server.port);
    try {
      const s = envoy.open();
      s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/chat/completions', prefer: 'if-available' }));
      s.send(reqBody(body, true));
      const [reply] = await s.waitFor(1);
      s.cancel();
      await s.ended;
      return reply?.immediate_response?.status.code ?? 200;
    } finally {
      envoy.close();
      await epp.close();
    }
  }

  const config = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';

  describe('the EPP reads switchyard.ifAvailable', () => {
    it('ignores the preference by default', async () => {
      expect(await statusFor(config)).toBe(200);
    });

    it('answers 412 for an uncached prompt in shared mode', async () => {
      expect(await statusFor(`${config}switchyard:\n  ifAvailable:\n    mode: shared\n`)).toBe(412);
    });
  });
});
