import type { WireHeaderMap, WireHeaderMutation, WireHeaderValue } from '../wire/messages.js';
import type { ProtoReader } from './reader.js';
import type { ProtoWriter } from './writer.js';

/*
 * envoy.config.core.v3: HeaderValue { key = 1; value = 2; raw_value = 3 }, HeaderMap { repeated headers = 1 },
 * HeaderValueOption { header = 1; ... }, and ext_proc HeaderMutation { set_headers = 1; remove_headers = 2 }.
 */

/** Reads a HeaderMap occupying `[r.pos, end)`. */
export function readHeaderMap(r: ProtoReader, end: number): WireHeaderMap {
  const headers: WireHeaderValue[] = [];
  while (r.pos < end) {
    const tag = r.varint();
    if (tag !== 10) {
      r.skip(tag & 7);
      continue;
    }
    const hEnd = r.delimited();
    let key = '';
    let value: string | undefined;
    let raw: Buffer | undefined;
    while (r.pos < hEnd) {
      const t = r.varint();
      if (t === 10) key = r.string();
      else if (t === 18) value = r.string();
      else if (t === 26) raw = r.bytes();
      else r.skip(t & 7);
    }
    headers.push(raw === undefined ? { key, value } : value === undefined ? { key, raw_value: raw } : { key, value, raw_value: raw });
  }
  return { headers };
}

/** Writes a HeaderMap as field `field`. */
export function writeHeaderMap(w: ProtoWriter, field: number, map: WireHeaderMap): void {
  w.open(field);
  for (const h of map.headers ?? []) {
    w.open(1);
    writeHeaderValueBody(w, h);
    w.close();
  }
  w.close();
}

function writeHeaderValueBody(w: ProtoWriter, h: WireHeaderValue): void {
  w.stringField(1, h.key);
  if (h.value !== undefined && h.value !== '') w.stringField(2, h.value);
  if (h.raw_value !== undefined && h.raw_value.length > 0) w.bytesField(3, h.raw_value);
}

/** Writes a HeaderMutation as field `field`. */
export function writeHeaderMutation(w: ProtoWriter, field: number, m: WireHeaderMutation): void {
  w.open(field);
  for (const option of m.set_headers ?? []) {
    w.open(1);
    w.open(1);
    writeHeaderValueBody(w, option.header);
    w.close();
    w.close();
  }
  for (const name of m.remove_headers ?? []) w.stringField(2, name);
  w.close();
}

/** Reads a HeaderMutation occupying `[r.pos, end)`. */
export function readHeaderMutation(r: ProtoReader, end: number): WireHeaderMutation {
  const set: { header: { key: string; raw_value: Uint8Array } }[] = [];
  const remove: string[] = [];
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 18) {
      remove.push(r.string());
      continue;
    }
    if (tag !== 10) {
      r.skip(tag & 7);
      continue;
    }
    const oEnd = r.delimited();
    while (r.pos < oEnd) {
      const t = r.varint();
      if (t !== 10) {
        r.skip(t & 7);
        continue;
      }
      const hEnd = r.delimited();
      let key = '';
      let raw: Uint8Array = Buffer.alloc(0);
      while (r.pos < hEnd) {
        const tt = r.varint();
        if (tt === 10) key = r.string();
        else if (tt === 18) raw = Buffer.from(r.string(), 'utf8');
        else if (tt === 26) raw = r.bytes();
        else r.skip(tt & 7);
      }
      set.push({ header: { key, raw_value: raw } });
    }
  }
  return remove.length > 0 ? { set_headers: set, remove_headers: remove } : { set_headers: set };
}
