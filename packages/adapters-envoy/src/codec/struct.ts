import type { WireStruct, WireValue } from '../wire/messages.js';
import type { ProtoReader } from './reader.js';
import type { ProtoWriter } from './writer.js';

/*
 * google.protobuf.Struct / Value / ListValue:
 *   Struct { map<string, Value> fields = 1; }   (entry: key = 1, value = 2)
 *   Value  { oneof kind { NullValue null_value = 1; double number_value = 2; string string_value = 3;
 *                          bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6; } }
 *   ListValue { repeated Value values = 1; }
 */

/**
 * Reads the entries of a protobuf `map<string, M>` field numbered 1 occupying `[r.pos, end)`
 * (Struct.fields and Metadata.filter_metadata share this shape); other fields are skipped.
 */
export function readStringMap<T>(r: ProtoReader, end: number, readEntryValue: (r: ProtoReader, end: number) => T, empty: () => T): Record<string, T> {
  const entries: Record<string, T> = {};
  while (r.pos < end) {
    const tag = r.varint();
    if (tag !== 10) {
      r.skip(tag & 7);
      continue;
    }
    const entryEnd = r.delimited();
    let key = '';
    let value = empty();
    while (r.pos < entryEnd) {
      const t = r.varint();
      if (t === 10) key = r.string();
      else if (t === 18) value = readEntryValue(r, r.delimited());
      else r.skip(t & 7);
    }
    entries[key] = value;
  }
  return entries;
}

/** Reads a Struct occupying `[r.pos, end)`. */
export function readStruct(r: ProtoReader, end: number): WireStruct {
  return { fields: readStringMap<WireValue>(r, end, readValue, () => ({})) };
}

function readValue(r: ProtoReader, end: number): WireValue {
  let value: WireValue = {};
  while (r.pos < end) {
    const tag = r.varint();
    switch (tag) {
      case 8:
        value = { nullValue: r.varint() };
        break;
      case 17:
        value = { numberValue: r.double() };
        break;
      case 26:
        value = { stringValue: r.string() };
        break;
      case 32:
        value = { boolValue: r.varint() !== 0 };
        break;
      case 42:
        value = { structValue: readStruct(r, r.delimited()) };
        break;
      case 50: {
        const listEnd = r.delimited();
        const values: WireValue[] = [];
        while (r.pos < listEnd) {
          const t = r.varint();
          if (t === 10) values.push(readValue(r, r.delimited()));
          else r.skip(t & 7);
        }
        value = { listValue: { values } };
        break;
      }
      default:
        r.skip(tag & 7);
    }
  }
  return value;
}

/** Writes `struct` as field `field`. */
export function writeStruct(w: ProtoWriter, field: number, struct: WireStruct): void {
  w.open(field);
  writeStructBody(w, struct);
  w.close();
}

function writeStructBody(w: ProtoWriter, struct: WireStruct): void {
  for (const [key, value] of Object.entries(struct.fields ?? {})) {
    w.open(1);
    w.stringField(1, key);
    w.open(2);
    writeValueBody(w, value);
    w.close();
    w.close();
  }
}

function writeValueBody(w: ProtoWriter, v: WireValue): void {
  if (v.stringValue !== undefined) w.stringField(3, v.stringValue);
  else if (v.numberValue !== undefined) w.doubleField(2, v.numberValue);
  else if (v.boolValue !== undefined) w.uintField(4, v.boolValue ? 1 : 0);
  else if (v.structValue !== undefined) writeStruct(w, 5, v.structValue);
  else if (v.listValue !== undefined) {
    w.open(6);
    for (const item of v.listValue.values ?? []) {
      w.open(1);
      writeValueBody(w, item);
      w.close();
    }
    w.close();
  } else w.uintField(1, 0);
}
