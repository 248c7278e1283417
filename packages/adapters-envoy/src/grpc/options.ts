import type { Clock } from '@switchyard/core';
import type { Registry } from 'prom-client';
import type { ExtProcStreamOptions } from '../stream/types.js';
import type { HealthState } from './health.js';

/**
 * TLS material for the gRPC port (PEM contents, not paths). Without it the port is plaintext.
 * @public
 * @category Server
 */
export interface EppTlsOptions {
  /** Certificate chain, PEM. */
  readonly cert: string | Uint8Array;
  /** Private key, PEM. */
  readonly key: string | Uint8Array;
}

/**
 * The gRPC server implementation of {@link startEppServer}.
 * @public
 * @category Server
 */
export type EppTransport = 'grpc-js' | 'http2';

/**
 * HTTP/2 keepalive pings from the server, which detect dead proxy connections.
 * @public
 * @category Server
 */
export interface EppKeepaliveOptions {
  /**
   * Ping after this much idle time, ms.
   * @defaultValue 30000
   */
  readonly timeMs?: number;
  /**
   * Drop the connection when a ping is not answered within this time, ms.
   * @defaultValue 10000
   */
  readonly timeoutMs?: number;
}

/**
 * Options of {@link startEppServer}: the stream options plus where and how to listen. The defaults
 * are `EPP_SERVER_DEFAULTS` (and the stream's `EXT_PROC_STREAM_DEFAULTS`), applied and checked
 * once by `resolveEppServerOptions`.
 * @public
 * @category Server
 */
export interface EppServerOptions extends ExtProcStreamOptions {
  /**
   * Interface to bind.
   * @defaultValue '0.0.0.0'
   */
  readonly host?: string | undefined;
  /**
   * gRPC port (ext_proc and health); 0 picks a free port.
   * @defaultValue 9002
   */
  readonly port?: number | undefined;
  /**
   * Also serve `grpc.health.v1.Health` alone on this port (llm-d's EPP uses 9003 for probes);
   * 0 picks a free port; plaintext even with `tls` (Kubernetes gRPC probes do not speak TLS).
   * Health stays on `port` as well, where gateways check it. Default: none.
   */
  readonly healthPort?: number | undefined;
  /** Serve TLS with this certificate; plaintext when absent. */
  readonly tls?: EppTlsOptions | undefined;
  /** Keepalive settings. */
  readonly keepalive?: EppKeepaliveOptions | undefined;
  /** Most concurrent streams per proxy connection (HTTP/2 setting). Default: no limit. */
  readonly maxConcurrentStreams?: number | undefined;
  /** Health state to report; the server creates a ready one when absent. */
  readonly health?: HealthState | undefined;
  /**
   * How long `close()` waits for in-flight requests before cutting connections, ms.
   * @defaultValue 30000
   */
  readonly shutdownGraceMs?: number | undefined;
  /**
   * Message codec: `builtin` (hand-written, zero-copy bodies) or `proto-loader` (protobufjs from
   * the shipped .proto files; needs the optional peer `@grpc/proto-loader`).
   * @defaultValue 'builtin'
   */
  readonly codec?: 'builtin' | 'proto-loader' | undefined;
  /**
   * Who speaks gRPC: `grpc-js` (`@grpc/grpc-js`, an optional peer) or `http2` (gRPC framed
   * directly on `node:http2`: no gRPC library on the request path, cheaper per decision;
   * docs/benchmarks.md). Both pass the same protocol tests.
   * @defaultValue 'http2'
   */
  readonly transport?: EppTransport | undefined;
  /** Directory of the .proto files for the `proto-loader` codec; defaults to the package's own `proto/`. */
  readonly protoDir?: string | undefined;
  /** Runs after the gRPC server has stopped (close the flow controller, stop scraping...). */
  readonly onClose?: (() => void | Promise<void>) | undefined;
  /**
   * Record llm-d's ext_proc stream families (`llm_d_epp_extproc_streams_inflight`,
   * `_stream_duration_seconds`, `_streams_total{code}`; llm-d's `--enable-grpc-stream-metrics`)
   * in this registry. Default: not recorded.
   */
  readonly streamMetrics?: Registry | undefined;
  /** Clock for the shutdown grace timer and stream latencies. Default `systemClock`. */
  readonly clock?: Clock | undefined;
}

/**
 * Counters of a running server.
 * @public
 * @category Server
 */
export interface EppServerStats {
  /** Open ext_proc streams. */
  readonly activeStreams: number;
  /** Streams waiting for a decision (parsing, queued in flow control, scheduling). */
  readonly schedulingStreams: number;
  /** Decisions made since start. */
  readonly decisions: number;
  /** Requests answered with an ImmediateResponse from the error contract, by HTTP status. */
  readonly rejected: Readonly<Record<number, number>>;
  /** Streams ended with a gRPC error (failures outside the contract). */
  readonly failures: number;
}

/**
 * A running endpoint-picker gRPC server.
 * @public
 * @category Server
 */
export interface EppServer {
  /** Bound port (useful with port 0). */
  readonly port: number;
  /** Bound host. */
  readonly host: string;
  /** Bound port of the health-only server, when `healthPort` was given. */
  readonly healthPort: number | undefined;
  /** Health reported by `grpc.health.v1.Health`. */
  readonly health: HealthState;
  /** The transport serving the ports. */
  readonly transport: EppTransport;
  /** Current counters. */
  stats(): EppServerStats;
  /**
   * Graceful shutdown: readiness turns NOT_SERVING, requests still waiting for a decision are
   * answered 503 `rejected-shutting-down`, no new streams are accepted, forwarded requests may
   * finish within the grace period, then connections are closed and `onClose` runs.
   */
  close(graceMs?: number): Promise<void>;
}
