/*
 * Test-only: the transports every server, protocol and lifecycle test runs against
 * (`describe.each(TRANSPORTS)`). Not exported from the package.
 */
import type { EppTransport } from '../grpc/options.js';

/** Both gRPC transports of `startEppServer`. */
export const TRANSPORTS: readonly EppTransport[] = ['grpc-js', 'http2'];
