import type { WireStruct, WireValue } from './messages.js';

/**
 * Converts a `google.protobuf.Value` to plain JSON (like Go's `structpb.Value.AsInterface`).
 * @public
 */
export function valueToJson(value: WireValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.numberValue !== undefined) return value.numberValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.structValue !== undefined) return structToJson(value.structValue);
  if (value.listValue !== undefined) return (value.listValue.values ?? []).map(valueToJson);
  return null;
}

/**
 * Converts a `google.protobuf.Struct` to a plain object (like Go's `Struct.AsMap`).
 * @public
 */
export function structToJson(struct: WireStruct | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (struct?.fields === undefined) return out;
  for (const [key, value] of Object.entries(struct.fields)) out[key] = valueToJson(value);
  return out;
}

/**
 * Reads an address list from a Struct field: a list of strings (the protocol's form) or a single
 * comma-joined string (accepted by some proxies). Returns `undefined` when the field is absent,
 * so "no hint" and "empty hint" stay distinguishable (the latter must answer 503).
 * @public
 */
export function readAddressList(struct: WireStruct | undefined, key: string): string[] | undefined {
  const value = struct?.fields?.[key];
  if (value === undefined) return undefined;
  if (value.listValue !== undefined) {
    const out: string[] = [];
    for (const item of value.listValue.values ?? []) {
      if (typeof item.stringValue === 'string' && item.stringValue.trim() !== '') out.push(item.stringValue.trim());
    }
    return out;
  }
  if (typeof value.stringValue === 'string') {
    return value.stringValue
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
  return [];
}

/**
 * Reads a string field of a Struct, or `undefined`.
 * @public
 */
export function readString(struct: WireStruct | undefined, key: string): string | undefined {
  const value = struct?.fields?.[key];
  return typeof value?.stringValue === 'string' ? value.stringValue : undefined;
}

/**
 * Builds `dynamic_metadata` holding one namespace of string fields, e.g.
 * `{"envoy.lb": {"x-gateway-destination-endpoint": "10.0.0.1:8000"}}`. protobufjs needs the
 * Struct spelled out member by member.
 * @public
 */
export function namespaceStruct(namespace: string, fields: Readonly<Record<string, string>>): WireStruct {
  const inner: Record<string, WireValue> = {};
  for (const [key, value] of Object.entries(fields)) inner[key] = { stringValue: value };
  return { fields: { [namespace]: { structValue: { fields: inner } } } };
}

/**
 * Builds `dynamic_metadata` of namespaces of number fields, e.g.
 * `{"envoy.lb": {"x-gateway-inference-request-cost": 42}}` (request-attribute-reporter's values).
 * @internal
 */
export function numberMetadataStruct(metadata: Readonly<Record<string, Readonly<Record<string, number>>>>): WireStruct {
  const fields: Record<string, WireValue> = {};
  for (const [namespace, values] of Object.entries(metadata)) {
    const inner: Record<string, WireValue> = {};
    for (const [key, value] of Object.entries(values)) inner[key] = { numberValue: value };
    fields[namespace] = { structValue: { fields: inner } };
  }
  return { fields };
}
