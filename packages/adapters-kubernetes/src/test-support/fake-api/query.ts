import { matchesLabels, parseLabelSelector, type LabelSelector } from '../../selectors/label-selector.js';
import { ApiError, type Obj } from './store.js';

/** What a list or watch selects. */
export interface Selection {
  readonly namespace: string | undefined;
  readonly labels: LabelSelector;
  readonly fields: readonly { readonly path: string; readonly value: string; readonly negate: boolean }[];
}

function fieldValue(o: Obj, path: string): string {
  let v: unknown = o;
  for (const part of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** Reads `labelSelector` and `fieldSelector` (`metadata.name`, `metadata.namespace`, `=`, `==`, `!=`). */
export function selectionOf(params: URLSearchParams, namespace: string | undefined): Selection {
  let labels: LabelSelector;
  try {
    labels = parseLabelSelector(params.get('labelSelector') ?? '');
  } catch (err) {
    throw new ApiError(400, 'BadRequest', err instanceof Error ? err.message : String(err));
  }
  const fields = (params.get('fieldSelector') ?? '')
    .split(',')
    .filter((t) => t.trim() !== '')
    .map((t) => {
      const m = /^\s*([\w.]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(t);
      if (m === null) throw new ApiError(400, 'BadRequest', `invalid field selector "${t}"`);
      return { path: m[1] ?? '', value: m[3] ?? '', negate: m[2] === '!=' };
    });
  return { namespace, labels, fields };
}

/** Whether an object is in the selection. */
export function selects(s: Selection, o: Obj): boolean {
  if (s.namespace !== undefined && o.metadata.namespace !== s.namespace) return false;
  if (!matchesLabels(s.labels, o.metadata.labels as Record<string, string> | undefined)) return false;
  return s.fields.every((f) => (fieldValue(o, f.path) === f.value) !== f.negate);
}

/** A continue token: where the next page starts, pinned to the first page's resourceVersion. */
export interface Continue {
  readonly rv: number;
  readonly after: string;
}

export function encodeContinue(c: Continue): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeContinue(token: string): Continue {
  try {
    const c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Continue;
    if (typeof c.rv === 'number' && typeof c.after === 'string') return c;
  } catch {
    // answered below
  }
  throw new ApiError(400, 'BadRequest', `invalid continue token`);
}
