import { SwitchyardError } from '../errors/switchyard-error.js';

/**
 * One requirement of a Kubernetes label selector.
 * @public
 * @category Endpoints and the pool
 */
export type LabelRequirement =
  | { readonly op: '=' | '!='; readonly key: string; readonly value: string }
  | { readonly op: 'in' | 'notin'; readonly key: string; readonly values: readonly string[] }
  | { readonly op: 'exists' | '!exists'; readonly key: string };

/**
 * A parsed label selector: every requirement must hold (Kubernetes ANDs them).
 * @public
 * @category Endpoints and the pool
 */
export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
}

const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

function invalid(where: string, text: string, why: string): SwitchyardError {
  return new SwitchyardError('CONFIG_INVALID', `${where}: invalid label selector "${text}": ${why}`);
}

/** Splits at top-level commas (commas inside `in (...)` lists belong to the list). */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms.map((t) => t.trim());
}

function checkKey(key: string, where: string, text: string): string {
  if (!KEY.test(key)) throw invalid(where, text, `bad key "${key}"`);
  return key;
}

function checkValue(value: string, where: string, text: string): string {
  if (!VALUE.test(value)) throw invalid(where, text, `bad value "${value}"`);
  return value;
}

function parseTerm(term: string, where: string, text: string): LabelRequirement {
  const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
  if (set !== null) {
    // apimachinery: "for 'in', 'notin' operators, values set can't be empty".
    if ((set[3] ?? '').trim() === '') throw invalid(where, text, `"${set[2] ?? ''}" needs at least one value`);
    const values = (set[3] ?? '').split(',').map((v) => checkValue(v.trim(), where, text));
    return { op: set[2] as 'in' | 'notin', key: checkKey(set[1] ?? '', where, text), values };
  }
  const eq = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
  if (eq !== null) {
    const op = eq[2] === '!=' ? '!=' : '=';
    return { op, key: checkKey(eq[1] ?? '', where, text), value: checkValue(eq[3] ?? '', where, text) };
  }
  if (term.startsWith('!')) return { op: '!exists', key: checkKey(term.slice(1).trim(), where, text) };
  return { op: 'exists', key: checkKey(term, where, text) };
}

/**
 * Parses Kubernetes label-selector syntax: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`,
 * `a` (exists) and `!a` (does not exist), comma-separated. An empty string selects everything.
 * @param where - what to name in errors, e.g. `--endpoint-selector`
 * @throws SwitchyardError `CONFIG_INVALID` naming `where` and the bad term
 * @public
 * @category Endpoints and the pool
 */
export function parseLabelSelector(text: string, where = 'labelSelector'): LabelSelector {
  if (text.trim() === '') return { requirements: [] };
  const requirements = splitTerms(text).map((term) => {
    if (term === '') throw invalid(where, text, 'empty term');
    return parseTerm(term, where, text);
  });
  return { requirements };
}

/**
 * The selector of `matchLabels` (what an InferencePool's `spec.selector` holds).
 * @public
 * @category Endpoints and the pool
 */
export function selectorFromMatchLabels(matchLabels: Readonly<Record<string, string>>): LabelSelector {
  return { requirements: Object.entries(matchLabels).map(([key, value]) => ({ op: '=', key, value })) };
}

/**
 * Whether `labels` satisfy every requirement (missing labels fail `=` and `in`, pass `!=` and `notin`).
 * @public
 * @category Endpoints and the pool
 */
export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  for (const r of selector.requirements) {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case '=': if (v !== r.value) return false; break;
      case '!=': if (has && v === r.value) return false; break;
      case 'in': if (!has || !r.values.includes(v ?? '')) return false; break;
      case 'notin': if (has && r.values.includes(v ?? '')) return false; break;
      case 'exists': if (!has) return false; break;
      case '!exists': if (has) return false; break;
    }
  }
  return true;
}

/**
 * Formats a selector in Kubernetes syntax (what a `labelSelector` query parameter carries).
 * @public
 * @category Endpoints and the pool
 */
export function formatLabelSelector(selector: LabelSelector): string {
  return selector.requirements
    .map((r) => {
      switch (r.op) {
        case '=': case '!=': return `${r.key}${r.op}${r.value}`;
        case 'in': case 'notin': return `${r.key} ${r.op} (${r.values.join(',')})`;
        case 'exists': return r.key;
        case '!exists': return `!${r.key}`;
      }
    })
    .join(',');
}
