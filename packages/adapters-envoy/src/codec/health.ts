import { ProtoReader } from './reader.js';
import { ProtoWriter } from './writer.js';

/**
 * Decodes `grpc.health.v1.HealthCheckRequest { string service = 1; }`.
 * @public
 * @category Codec
 */
export function decodeHealthCheckRequest(bytes: Buffer): { service: string } {
  const r = new ProtoReader(bytes);
  let service = '';
  while (r.pos < r.end) {
    const tag = r.varint();
    if (tag === 10) service = r.string();
    else r.skip(tag & 7);
  }
  return { service };
}

/**
 * Encodes `grpc.health.v1.HealthCheckRequest`.
 * @public
 * @category Codec
 */
export function encodeHealthCheckRequest(m: { service?: string }): Buffer {
  const w = new ProtoWriter();
  if (m.service !== undefined && m.service !== '') w.stringField(1, m.service);
  return w.finish();
}

/**
 * Encodes `grpc.health.v1.HealthCheckResponse { ServingStatus status = 1; }`.
 * @public
 * @category Codec
 */
export function encodeHealthCheckResponse(m: { status: number }): Buffer {
  const w = new ProtoWriter();
  if (m.status !== 0) w.uintField(1, m.status);
  return w.finish();
}

/**
 * Decodes `grpc.health.v1.HealthCheckResponse`.
 * @public
 * @category Codec
 */
export function decodeHealthCheckResponse(bytes: Buffer): { status: number } {
  const r = new ProtoReader(bytes);
  let status = 0;
  while (r.pos < r.end) {
    const tag = r.varint();
    if (tag === 8) status = r.varint();
    else r.skip(tag & 7);
  }
  return { status };
}
