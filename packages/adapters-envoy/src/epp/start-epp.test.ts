import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@switchyard/core';
import { startEpp } from '@switchyard/envoy';
import { describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../test-support/transports.js';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { TEST_CERT, TEST_KEY } from '../test-support/tls-fixture.js';
import { reqBody, reqHeaders, setHeaders } from '../test-support/wire-helpers.js';

describe.each(TRANSPORTS)('%s transport', (transport) => {
  describe('startEpp', () => {
    it('runs with llm-d defaults when no config is given (prefix-aware scoring, no flow control)', async () => {
      const lines: string[] = [];
      const epp = await startEpp({ transport, endpoints: ['10.9.0.1:8000', '10.9.0.2:8000'], host: '127.0.0.1', grpcPort: 0, metricsPort: false, scrapeIntervalMs: false, log: (l) => lines.push(l) });
      try {
        expect(epp.flowController).toBeUndefined();
        const effective = lines.join('\n');
        expect(effective).toContain('queue-scorer');
        expect(effective).toContain('kv-cache-utilization-scorer');
        expect(effective).toContain('prefix-cache-scorer');
        const envoy = new EnvoyEmulator(epp.server.port);
        const s = envoy.open();
        s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions' }));
        s.send(reqBody('{"model":"m","prompt":"hi"}', true));
        const [head] = await s.waitFor(1);
        expect(setHeaders(head!.request_headers!.response.header_mutation)['x-gateway-destination-endpoint']).toMatch(/^10\.9\.0\.[12]:8000$/);
        s.cancel();
        await s.ended;
        envoy.close();
      } finally {
        await epp.close();
      }
    });

    it("parses with the parsers the config's requestHandler names", async () => {
      const configText = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: queue-scorer\nrequestHandler:\n  parsers:\n  - pluginRef: openai-parser\n';
      const epp = await startEpp({ transport, endpoints: ['10.9.0.1:8000'], configText, host: '127.0.0.1', grpcPort: 0, metricsPort: false, scrapeIntervalMs: false, log: () => undefined });
      const envoy = new EnvoyEmulator(epp.server.port);
      try {
        const send = async (path: string, body: string) => {
          const s = envoy.open();
          s.send(reqHeaders({ ':method': 'POST', ':path': path }));
          s.send(reqBody(body, true));
          const [reply] = await s.waitFor(1);
          s.cancel();
          await s.ended;
          return reply!;
        };
        const chat = await send('/v1/chat/completions', '{"model":"m","messages":[{"role":"user","content":"hi"}]}');
        expect(setHeaders(chat.request_headers!.response.header_mutation)['x-gateway-destination-endpoint']).toBe('10.9.0.1:8000');
        // Only openai-parser is listed and it has no fallback: the Anthropic Messages path is a 400.
        const messages = await send('/v1/messages', '{"model":"m","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}');
        expect(messages.immediate_response!.status.code).toBe(400);
      } finally {
        envoy.close();
        await epp.close();
      }
    });

    it('leaves nothing running when the gRPC port cannot be bound: no polls, no timers', async () => {
      const first = await startEpp({ transport, endpoints: ['10.9.0.1:8000'], host: '127.0.0.1', grpcPort: 0, metricsPort: false, scrapeIntervalMs: false, log: () => undefined });
      try {
        const clock = new ManualClock();
        await expect(startEpp({ transport, endpoints: ['127.0.0.1:9'], clock, host: '127.0.0.1', grpcPort: first.server.port, metricsPort: false, log: () => undefined })).rejects.toThrow();
        // The scraper had started (a poll with its timeout timer on this clock); it was stopped.
        expect(clock.pendingTimers).toBe(0);
      } finally {
        await first.close();
      }
    });

    it('closes the gRPC server when the metrics port cannot be bound', async () => {
      const first = await startEpp({ transport, endpoints: ['10.9.0.1:8000'], host: '127.0.0.1', grpcPort: 0, metricsPort: 0, scrapeIntervalMs: false, log: () => undefined });
      try {
        await expect(startEpp({ transport, endpoints: ['10.9.0.1:8000'], host: '127.0.0.1', grpcPort: 0, metricsPort: first.metricsServer!.port, scrapeIntervalMs: false, log: () => undefined })).rejects.toThrow(/EADDRINUSE/);
      } finally {
        await first.close();
      }
    });

    it('scrapes the path, port and interval named by the config\'s metrics-data-source', async () => {
      const paths: string[] = [];
      const modelServer = createServer((req, res) => {
        paths.push(req.url ?? '');
        if (req.url !== '/custom-metrics') {
          res.writeHead(404).end();
          return;
        }
        res.end('vllm:num_requests_waiting{model_name="m"} 4\nvllm:num_requests_running{model_name="m"} 2\nvllm:kv_cache_usage_perc{model_name="m"} 0.25\n');
      });
      await new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve));
      const port = (modelServer.address() as AddressInfo).port;
      const configText = [
        'apiVersion: llm-d.ai/v1alpha1',
        'kind: EndpointPickerConfig',
        'plugins:',
        '- type: metrics-data-source',
        '  parameters:',
        '    path: /custom-metrics',
        `    port: ${port}`,
        '    interval: 100ms',
        '- type: core-metrics-extractor',
        '- type: queue-scorer',
        'schedulingProfiles:',
        '- name: default',
        '  plugins:',
        '  - pluginRef: queue-scorer',
      ].join('\n');
      // The model server itself is elsewhere: only the data source's port leads to the metrics.
      const epp = await startEpp({ transport, endpoints: ['127.0.0.1:9'], configText, host: '127.0.0.1', grpcPort: 0, metricsPort: false, log: () => undefined });
      try {
        const endpoint = epp.pool.list()[0]!;
        await expect.poll(() => endpoint.metrics?.waitingQueueSize, { timeout: 10_000 }).toBe(4);
        expect(endpoint.metrics?.kvCacheUsagePercent).toBe(0.25);
        expect(new Set(paths)).toEqual(new Set(['/custom-metrics']));
      } finally {
        await epp.close();
        await new Promise<void>((resolve) => modelServer.close(() => { resolve(); }));
      }
    });

    it('scrapes an https metrics source with the CA file its config names', async () => {
      const exporter = createHttpsServer({ cert: TEST_CERT, key: TEST_KEY }, (_req, res) => {
        res.end('vllm:num_requests_waiting{model_name="m"} 6\n');
      });
      await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
      const dir = await mkdtemp(join(tmpdir(), 'switchyard-epp-tls-'));
      try {
        const caPath = join(dir, 'ca.pem');
        await writeFile(caPath, TEST_CERT);
        const port = (exporter.address() as AddressInfo).port;
        const configText = (params: string): string => `apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: metrics-data-source\n  parameters: { scheme: https, port: ${port}, ${params} }\n`;
        const base = { endpoints: ['127.0.0.1:9'], host: '127.0.0.1', grpcPort: 0, metricsPort: false as const, log: () => undefined };
        const epp = await startEpp({ transport, ...base, configText: configText(`insecureSkipVerify: false, caCertPath: "${caPath}"`) });
        try {
          await expect.poll(() => epp.pool.list()[0]?.metrics?.waitingQueueSize, { timeout: 5000 }).toBe(6);
        } finally {
          await epp.close();
        }
        const missing = join(dir, 'missing.pem');
        await expect(startEpp({ transport, ...base, configText: configText(`caCertPath: "${missing}"`) })).rejects.toThrow(`metrics-data-source "metrics-data-source": caCertPath "${missing}" cannot be read`);
      } finally {
        await new Promise<void>((resolve) => exporter.close(() => { resolve(); }));
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('logs one line when an endpoint\'s metrics polls start failing and one when they recover', async () => {
      let healthy = false;
      const exporter = createServer((_req, res) => {
        if (healthy) res.end('vllm:num_requests_waiting{model_name="m"} 1\n');
        else res.writeHead(503).end();
      });
      await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
      const port = (exporter.address() as AddressInfo).port;
      const lines: string[] = [];
      const configText = `apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: metrics-data-source\n  parameters: { port: ${port} }\n`;
      const epp = await startEpp({ transport, endpoints: ['127.0.0.1:9'], configText, host: '127.0.0.1', grpcPort: 0, metricsPort: false, log: (l) => lines.push(l) });
      try {
        const scrapeLines = (): string[] => lines.filter((l) => l.startsWith('metrics scrape of') || l.startsWith('metrics of endpoint'));
        await expect.poll(scrapeLines, { timeout: 5000 }).toHaveLength(1);
        expect(scrapeLines()[0]).toMatch(/^metrics scrape of endpoint "127\.0\.0\.1:9" .* failed: HTTP 503; scheduling sees no fresh metrics for it, retrying with backoff$/);
        healthy = true;
        await expect.poll(scrapeLines, { timeout: 5000 }).toHaveLength(2);
        expect(scrapeLines()[1]).toBe('metrics of endpoint "127.0.0.1:9" are back');
      } finally {
        await epp.close();
        await new Promise<void>((resolve) => exporter.close(() => { resolve(); }));
      }
    });
  });
});
