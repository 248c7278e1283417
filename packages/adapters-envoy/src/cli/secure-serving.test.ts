import * as grpc from '@grpc/grpc-js';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { parseEppArgs, runEppCli, type RunningEpp } from '@switchyard/envoy';
import { describe, expect, it } from 'vitest';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { reqBody, reqHeaders, setHeaders } from '../test-support/wire-helpers.js';

/** The certificate the server presents on `port` (read without verifying, as gateways connect to an EPP). */
function presentedCertificate(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['h2'] }, () => {
      const pem = socket.getPeerX509Certificate()?.toString();
      socket.destroy();
      if (pem === undefined) reject(new Error('no certificate presented'));
      else resolve(pem);
    });
    socket.on('error', reject);
  });
}

async function startCli(args: readonly string[]): Promise<{ epp: RunningEpp; stderr: string[]; stop: () => Promise<void> }> {
  const stop = new AbortController();
  const stderr: string[] = [];
  const epp = await new Promise<RunningEpp>((resolve, reject) => {
    runEppCli([...args, '--endpoints', '10.0.0.1:8000', '--host', '127.0.0.1', '--grpc-port', '0', '--metrics-port', '0', '--log-level', 'silent'], {
      stdout: () => undefined,
      stderr: (t) => { stderr.push(t); },
      signal: stop.signal,
      onStarted: resolve,
    }).catch(reject);
  });
  return { epp, stderr, stop: async () => { stop.abort(); await epp.close(); } };
}

describe('switchyard-epp --secure-serving', () => {
  it.each(['http2', 'grpc-js'])('without --tls-cert generates a certificate at start and serves ext_proc over TLS with it (%s)', async (transport) => {
    const cli = await startCli(['--secure-serving', '--transport', transport]);
    try {
      const pem = await presentedCertificate(cli.epp.server.port);
      const cert = new X509Certificate(pem);
      expect(cert.subject).toBe('CN=switchyard-epp');
      expect(cli.stderr.join('')).toContain(`self-signed certificate generated at start (sha256 ${cert.fingerprint256})`);
      expect(cli.stderr.join('')).not.toContain('--secure-serving: ');
      // A client that trusts exactly that certificate completes an ext_proc exchange.
      const envoy = new EnvoyEmulator(cli.epp.server.port, grpc.credentials.createSsl(Buffer.from(pem)), { 'grpc.ssl_target_name_override': 'switchyard-epp' });
      try {
        const s = envoy.open();
        s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions', 'content-type': 'application/json' }));
        s.send(reqBody('{"model":"m","prompt":"hi"}', true));
        const [head] = await s.waitFor(1);
        expect(setHeaders(head?.request_headers?.response.header_mutation)['x-gateway-destination-endpoint']).toBe('10.0.0.1:8000');
        s.cancel();
        await s.ended;
      } finally {
        envoy.close();
      }
    } finally {
      await cli.stop();
    }
  });

  it('=false serves plaintext, and refuses certificate files alongside it, naming both flags', async () => {
    const cli = await startCli(['--secure-serving=false']);
    try {
      const envoy = new EnvoyEmulator(cli.epp.server.port);
      try {
        expect(await envoy.check('')).toBe(1);
      } finally {
        envoy.close();
      }
    } finally {
      await cli.stop();
    }
    expect(() => parseEppArgs(['--secure-serving=false', '--cert-path', '/certs'])).toThrow(/--secure-serving=false and --tls-cert\/--cert-path/);
    expect(parseEppArgs(['--secure-serving']).llmd.secureServing).toBe(true);
    expect(parseEppArgs([]).llmd.secureServing).toBeUndefined();
  });
});
