import type { Clock } from '@switchyard/core';
import type { ExtProcCalls } from './ext-proc-calls.js';
import type { HealthState } from './health.js';
import type { EppServices } from './load.js';
import type { ResolvedEppServerOptions } from './server-defaults.js';

/** What `startEppServer` hands a transport: everything but the wire. */
export interface TransportContext {
  readonly options: ResolvedEppServerOptions;
  /** Method paths and message codecs (built-in or proto-loader). */
  readonly services: EppServices;
  /** The Process calls' protocol logic and counters. */
  readonly calls: ExtProcCalls;
  readonly health: HealthState;
  readonly clock: Clock;
}

/** A transport listening on its ports. */
export interface BoundTransport {
  readonly port: number;
  readonly healthPort: number | undefined;
  /**
   * Ends health watches, closes the health-only port, stops accepting calls and waits up to
   * `graceMs` for open calls before cutting connections.
   */
  close(graceMs: number): Promise<void>;
}

/** `host:port` for a listen address, with IPv6 hosts bracketed. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}
