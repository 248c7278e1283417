import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EppServerStats } from '../grpc/options.js';

/**
 * Anything that renders Prometheus text: a prom-client `Registry` fits, as does a plain function.
 * @public
 * @category EPP
 */
export interface MetricsSource {
  /** Prometheus exposition text. */
  metrics(): Promise<string> | string;
}

/**
 * A running `/metrics` HTTP server.
 * @public
 * @category EPP
 */
export interface MetricsHttpServer {
  /** Bound port. */
  readonly port: number;
  /** Stops listening and closes idle connections. */
  close(): Promise<void>;
}

/**
 * Renders the ext_proc server's own counters as Prometheus text (`switchyard_envoy_*`).
 * @public
 */
export function formatServerStats(stats: EppServerStats): string {
  const lines = [
    '# HELP switchyard_envoy_streams_active Open ext_proc streams.',
    '# TYPE switchyard_envoy_streams_active gauge',
    `switchyard_envoy_streams_active ${stats.activeStreams}`,
    '# HELP switchyard_envoy_streams_scheduling ext_proc streams waiting for a decision (queued or scheduling).',
    '# TYPE switchyard_envoy_streams_scheduling gauge',
    `switchyard_envoy_streams_scheduling ${stats.schedulingStreams}`,
    '# HELP switchyard_envoy_decisions_total Requests scheduled and forwarded.',
    '# TYPE switchyard_envoy_decisions_total counter',
    `switchyard_envoy_decisions_total ${stats.decisions}`,
    '# HELP switchyard_envoy_immediate_responses_total Requests answered with an ImmediateResponse, by HTTP status.',
    '# TYPE switchyard_envoy_immediate_responses_total counter',
    ...Object.entries(stats.rejected).map(([status, n]) => `switchyard_envoy_immediate_responses_total{status="${status}"} ${n}`),
    '# HELP switchyard_envoy_stream_failures_total Streams ended with a gRPC error (failures outside the error contract).',
    '# TYPE switchyard_envoy_stream_failures_total counter',
    `switchyard_envoy_stream_failures_total ${stats.failures}`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Serves `GET /metrics` (the concatenated text of every source), and `options.routes` when given
 * (the console), on its own port, separate from
 * the gRPC port as in the Gateway API Inference Extension's EPP.
 * @public
 */
export async function startMetricsServer(options: { readonly host: string; readonly port: number; readonly sources: readonly MetricsSource[]; readonly routes?: (req: IncomingMessage, res: ServerResponse) => boolean }): Promise<MetricsHttpServer> {
  const server: Server = createServer((req, res) => {
    // Further routes (the operator console) answer first when they own the path.
    if (options.routes?.(req, res) === true) return;
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    Promise.all(options.sources.map((s) => Promise.resolve(s.metrics())))
      .then((parts) => {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(parts.map((p) => (p.endsWith('\n') || p === '' ? p : `${p}\n`)).join(''));
      })
      .catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${error instanceof Error ? error.message : 'error'}\n`);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
