/*
 * The `grpc-timeout` request header (gRPC over HTTP/2, "Timeout"): 1 to 8 ASCII digits and a unit,
 * H(ours) M(inutes) S(econds) m(illiseconds) u(microseconds) n(anoseconds). The server ends a call
 * still running when it elapses with DEADLINE_EXCEEDED, as grpc-js does; Envoy sends it when the
 * ext_proc filter's gRPC service sets a `timeout`.
 */

const UNIT_MS: Readonly<Record<string, number>> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000_001 };

/** What a `grpc-timeout` value asks for. */
export type GrpcTimeout = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly message: string };

/**
 * Reads a `grpc-timeout` value. Sub-millisecond timeouts round up to 1 ms, so a deadline is never
 * zero (grpc-js truncates them to 0 and fails the call at once; a positive timeout that elapses
 * before the first message is the same outcome one millisecond later).
 */
export function parseGrpcTimeout(value: string): GrpcTimeout {
  const match = /^(\d{1,8})([HMSmun])$/.exec(value.trim());
  const unit = match?.[2] === undefined ? undefined : UNIT_MS[match[2]];
  if (match === null || unit === undefined) return { ok: false, message: `invalid grpc-timeout value "${value}": want 1-8 digits and a unit H, M, S, m, u or n` };
  const ms = Number(match[1]) * unit;
  return { ok: true, ms: ms === 0 ? 0 : Math.max(1, Math.ceil(ms)) };
}
