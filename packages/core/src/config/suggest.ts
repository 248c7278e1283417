import type { z } from 'zod';

/** Wrappers whose inner schema holds the object shape (`.optional()`, `.default()`, `.transform()`…). */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let s = schema;
  for (let i = 0; i < 16; i++) {
    const def = s._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType; getter?: () => z.core.$ZodType };
    if (def.innerType !== undefined) s = def.innerType;
    else if (def.type === 'pipe' && def.in !== undefined) {
      // A preprocess step (`z.preprocess`) comes first; the shape is the pipe's output schema.
      const out = (def as { out?: z.core.$ZodType }).out;
      s = (def.in._zod.def as { type: string }).type === 'transform' && out !== undefined ? out : def.in;
    }
    else if (def.type === 'lazy' && def.getter !== undefined) s = def.getter();
    else return s;
  }
  return s;
}

/**
 * The field names an object schema accepts at `path` (array indices step into the element;
 * unions contribute every option's fields), or an empty list when the path leads nowhere.
 * @internal
 */
export function knownKeys(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  let level: z.core.$ZodType[] = [schema];
  for (const key of path) {
    const next: z.core.$ZodType[] = [];
    for (const s of level.flatMap(expand)) {
      const def = s._zod.def as { type: string; shape?: Record<string, z.core.$ZodType>; element?: z.core.$ZodType; valueType?: z.core.$ZodType };
      if (typeof key === 'number' && def.element !== undefined) next.push(def.element);
      else if (def.shape !== undefined && typeof key === 'string' && def.shape[key] !== undefined) next.push(def.shape[key]);
      else if (def.type === 'record' && def.valueType !== undefined) next.push(def.valueType);
    }
    level = next;
  }
  const keys = new Set<string>();
  for (const s of level.flatMap(expand)) {
    const shape = (s._zod.def as { shape?: Record<string, unknown> }).shape;
    if (shape !== undefined) for (const k of Object.keys(shape)) keys.add(k);
  }
  return [...keys];
}

/** A schema with its wrappers removed; a union becomes its options. */
function expand(schema: z.core.$ZodType): z.core.$ZodType[] {
  const s = unwrap(schema);
  const def = s._zod.def as { type: string; options?: z.core.$ZodType[]; left?: z.core.$ZodType; right?: z.core.$ZodType };
  if (def.type === 'union' && def.options !== undefined) return def.options.flatMap(expand);
  if (def.type === 'intersection' && def.left !== undefined && def.right !== undefined) return [...expand(def.left), ...expand(def.right)];
  return [s];
}

/** Edit distance (insertions, deletions, substitutions; case differences cost nothing). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[y.length] as number;
}

/**
 * The candidate closest to `word` when it is close enough to be a likely typo (at most a third
 * of the word's length, and at least 2, edits away), else undefined.
 * @internal
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = distance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
