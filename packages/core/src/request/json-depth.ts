/**
 * Deepest nesting of arrays and objects accepted in a request body by default. Real requests
 * nest a few levels (messages → content parts → image_url; tool schemas a few dozen); thousands
 * of levels only serve to overflow the stack of whatever walks the body next (the model rewrite
 * re-serialises it, plugins read it), which would turn client input into a scheduler failure.
 * @public
 * @category Request parsing
 */
export const DEFAULT_MAX_JSON_DEPTH = 512;

/**
 * True when `value` nests arrays/objects more than `limit` levels deep (a bare object or array is
 * one level). Walks the parsed value with an explicit stack, so it cannot overflow itself, and
 * stops at the first branch over the limit. Cost is one step per array or object, not per byte:
 * strings and numbers are leaves.
 * @public
 */
export function exceedsJsonDepth(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    if (Array.isArray(node)) {
      for (const child of node as unknown[]) {
        if (typeof child === 'object' && child !== null) {
          pending.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const child = record[key];
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
