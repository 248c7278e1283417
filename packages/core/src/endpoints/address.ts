import { SwitchyardError } from '../errors/switchyard-error.js';

/**
 * Host and port of an `ip:port` address.
 * @public
 */
export interface ParsedAddress {
  /** Host without IPv6 brackets. */
  readonly ip: string;
  readonly port: number;
}

/**
 * Parses `ip:port` (IPv6 as `[::1]:8000`).
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad address
 * @public
 */
export function parseAddress(address: string): ParsedAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(address.trim());
  const port = m === null ? NaN : Number(m[3]);
  if (m === null || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SwitchyardError('CONFIG_INVALID', `invalid endpoint address "${address}": expected ip:port (IPv6 as [addr]:port) with a port in 1..65535`);
  }
  return { ip: m[1] ?? m[2] ?? '', port };
}

/**
 * Formats host and port as `ip:port`, bracketing IPv6 hosts (like Go's `net.JoinHostPort`).
 * @public
 */
export function joinHostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}
