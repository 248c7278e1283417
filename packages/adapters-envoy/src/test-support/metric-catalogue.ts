/**
 * Test-only parser of llm-d's metrics catalogue (the tables of `parity/fixtures/llm-d-metrics.md`,
 * copied from the reference catalogue). It turns every table row into the families it names:
 * the current `llm_d_epp_*` family and, where the row has one, its deprecated twin, each with
 * type, label names and bucket boundaries. The catalogue writes labels and buckets in a compact
 * prose (`model+flow`, `same`, `0.0001 … 0.1 (10)`, `general latency (35)`); the rules that
 * expand that prose live here, next to the tables they read. Not exported from the package.
 */

/** One metric family of the catalogue. */
export interface CatalogueMetric {
  /** Family name as exposed (counters keep their `_total`). */
  readonly name: string;
  /** Prometheus type. */
  readonly type: 'counter' | 'gauge' | 'histogram';
  /** Label names, sorted. */
  readonly labels: readonly string[];
  /** Bucket upper bounds of a histogram (without +Inf). */
  readonly buckets: readonly number[] | undefined;
  /** Catalogue section (`4.1` … `4.10`). */
  readonly section: string;
  /** For a deprecated twin: the current family it copies. */
  readonly twinOf: string | undefined;
}

/** llm-d's common label set *model+flow* (§4 preamble). */
const MODEL_FLOW = ['model_name', 'target_model_name', 'fairness_id', 'priority'];
/** *model* = incoming and rewritten model name (§4 preamble). */
const MODEL = ['model_name', 'target_model_name'];
/** Prometheus client_golang's `DefBuckets`. */
const PROMETHEUS_DEFAULT = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Row {
  readonly cells: Record<string, string>;
}

interface Table {
  readonly section: string;
  /** Header text of each column, lower-cased. */
  readonly columns: readonly string[];
  readonly rows: readonly Row[];
}

/** Splits the markdown into its tables, each tagged with the `### 4.x` heading above it. */
function tables(markdown: string): Table[] {
  const out: Table[] = [];
  let section = '';
  let current: { section: string; columns: string[]; rows: Row[] } | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^### (4\.\d+)/.exec(line);
    if (heading !== null) section = heading[1] as string;
    if (!line.startsWith('|')) {
      current = undefined;
      continue;
    }
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map((c) => c.trim());
    if (current === undefined) {
      current = { section, columns: cells.map((c) => c.toLowerCase()), rows: [] };
      out.push(current);
      continue;
    }
    if (cells.every((c) => /^-+$/.test(c))) continue;
    const row: Record<string, string> = {};
    current.columns.forEach((c, i) => (row[c] = cells[i] ?? ''));
    current.rows.push({ cells: row });
  }
  return out.filter((t) => t.section !== '' && t.columns.some((c) => c.startsWith('metric')));
}

function column(t: Table, row: Row, prefix: string): string | undefined {
  const c = t.columns.find((x) => x.startsWith(prefix));
  return c === undefined ? undefined : row.cells[c];
}

/** Backticked identifiers of `text` outside parentheses and braces (those hold values, not names). */
function names(text: string): string[] {
  let t = text;
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = t.replace(/\([^()]*\)/g, '').replace(/\{[^{}]*\}/g, '');
  }
  return [...t.matchAll(/`([a-z_][a-z0-9_]*)`/g)].map((m) => m[1] as string);
}

/** Label names of a "Labels" cell; `previous` resolves `same`. */
function labelsOf(cell: string, previous: readonly string[]): string[] {
  const t = cell.trim();
  if (t === '' || t === '—' || t === 'none') return [];
  if (t.startsWith('same')) return [...previous];
  const expanded = t.replace(/model\+flow/g, MODEL_FLOW.map((l) => `\`${l}\``).join(', '));
  return names(expanded);
}

function numbers(text: string): number[] {
  return [...text.replace(/\(sic[^)]*\)/g, '').matchAll(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)].map((m) => Number(m[0]));
}

/** Resolves a "Buckets" cell against the lists seen so far. */
class BucketResolver {
  readonly #named = new Map<string, number[]>();
  readonly #seen: { metric: string; buckets: number[] }[] = [];

  resolve(cell: string, typeCell: string): number[] | undefined {
    const t = cell.trim();
    if (/Prometheus default buckets/.test(typeCell)) return PROMETHEUS_DEFAULT;
    if (t === '' || t === '—') return undefined;
    const sameAs = /^same as (.+)$/.exec(t);
    if (sameAs !== null) return this.#byMetric((sameAs[1] as string).trim().replace(/ /g, '_'));
    const named = /^([a-zA-Z ]+?):\s*(.*)$/.exec(t);
    if (named !== null) {
      const list = numbers(named[2] as string);
      this.#named.set((named[1] as string).trim().toLowerCase(), list);
      return list;
    }
    const ref = /^([a-zA-Z][a-zA-Z ]*?)\s*\((\d+)[^)]*\)$/.exec(t);
    if (ref !== null) return this.#byName((ref[1] as string).trim().toLowerCase(), Number(ref[2]));
    if (t.includes('…')) {
      const n = /\((?:same )?(\d+)(?: buckets)?\)/.exec(t);
      const count = n === null ? undefined : Number(n[1]);
      const [before, after] = t.split('…') as [string, string];
      const head = numbers(before);
      const last = numbers(after.replace(/\(.*\)/, ''))[0];
      if (head.length >= 2 && count !== undefined && last !== undefined) {
        // An arithmetic progression written by its first two terms and its last one.
        const step = (head[1] as number) - (head[0] as number);
        const list = Array.from({ length: count }, (_, i) => Math.round(((head[0] as number) + i * step) * 1e9) / 1e9);
        if (list[list.length - 1] !== last) throw new Error(`bucket progression does not end at ${last}: ${t}`);
        return list;
      }
      // A list seen before, named by its first and last bound (and length).
      const hit = this.#seen.find((s) => s.buckets[0] === head[0] && s.buckets[s.buckets.length - 1] === last && (count === undefined || s.buckets.length === count));
      if (hit === undefined) throw new Error(`no earlier bucket list matches "${t}"`);
      return hit.buckets;
    }
    return numbers(t);
  }

  remember(metric: string, buckets: number[] | undefined): void {
    if (buckets !== undefined) this.#seen.push({ metric, buckets });
  }

  #byMetric(fragment: string): number[] {
    const hit = this.#seen.find((s) => s.metric.includes(fragment));
    if (hit === undefined) throw new Error(`no earlier metric matches "${fragment}"`);
    return hit.buckets;
  }

  #byName(name: string, count: number): number[] {
    const exact = this.#named.get(name) ?? this.#named.get(name.replace(/ buckets$/, ''));
    if (exact !== undefined) return exact;
    // "prediction buckets (14)": the list of an earlier metric whose name has that word.
    const word = name.split(' ')[0] as string;
    const hit = [...this.#seen].reverse().find((s) => s.metric.includes(word) && s.buckets.length === count);
    if (hit === undefined) throw new Error(`no bucket list named "${name}"`);
    return hit.buckets;
  }
}

/**
 * Labels of a deprecated twin from its cell, e.g. `(labels model + \`priority\`)`, `(model)`,
 * `(label \`model_name\` only)`, or nothing (same labels as the current family). A single
 * `label \`x\`` without "only" renames the current family's last label (`model_server_endpoint`
 * was `model_server_pod`).
 */
function twinLabels(spec: string, current: readonly string[], tableDefault: readonly string[] | undefined): string[] {
  const paren = /\(([^)]*)\)/.exec(spec)?.[1];
  if (paren === undefined || /same labels/.test(paren) || !/label|model/.test(paren)) return tableDefault === undefined ? [...current] : [...tableDefault];
  const single = /^label `([a-z_]+)`(?! only)/.exec(paren.trim());
  if (single !== null) return [...current.slice(0, -1), single[1] as string];
  const out: string[] = [];
  for (const part of paren.replace(/^labels?\s*/, '').split(/[+,;]/)) {
    const p = part.trim();
    if (p === 'model') out.push(...MODEL);
    else {
      const n = /^`([a-z_]+)`/.exec(p);
      if (n !== null) out.push(n[1] as string);
    }
  }
  return out;
}

/** The table-wide twin labels a header may state, e.g. "Deprecated twin (no labels)". */
function tableTwinDefault(t: Table, currentLabels: readonly string[]): string[] | undefined {
  const header = t.columns.find((c) => c.startsWith('deprecated twin'));
  if (header === undefined) return undefined;
  if (header.includes('no labels')) return [];
  const m = /\(labels ([^)]*)\)/.exec(header);
  if (m === null) return undefined;
  const base = names((m[1] as string).replace(/\[[^\]]*\]/g, ''));
  // "[+`type`]": the twin keeps `type` where the current family has it.
  return /\[\+`type`\]/.test(m[1] as string) && currentLabels.includes('type') ? [...base, 'type'] : base;
}

function typeOf(cell: string): CatalogueMetric['type'] {
  const w = cell.trim().split(/\s/)[0];
  if (w === 'counter' || w === 'gauge' || w === 'histogram') return w;
  throw new Error(`unknown metric type "${cell}"`);
}

/** Every family the catalogue's tables name (current and deprecated twins). */
export function parseMetricCatalogue(markdown: string): CatalogueMetric[] {
  const out: CatalogueMetric[] = [];
  const buckets = new BucketResolver();
  for (const t of tables(markdown)) {
    let previousLabels: string[] = [];
    for (const row of t.rows) {
      const metricCell = column(t, row, 'metric') ?? '';
      const typeCell = column(t, row, 'type') ?? '';
      const type = typeOf(typeCell);
      const labels = labelsOf(column(t, row, 'labels') ?? '', previousLabels);
      const current = metricCell.startsWith('—') ? undefined : names(metricCell)[0];
      // `same` names the previous current family's labels; a twin-only row (§4.9) has none.
      if (current !== undefined) previousLabels = labels;
      const b = type === 'histogram' ? buckets.resolve(column(t, row, 'buckets') ?? '', typeCell) : undefined;
      if (type === 'histogram' && b === undefined) throw new Error(`histogram ${metricCell} has no buckets`);
      if (current !== undefined) {
        out.push({ name: current, type, labels: [...labels].sort(), buckets: b, section: t.section, twinOf: undefined });
        buckets.remember(current, b);
      }
      // The twin: its own column, or a sentence in the meaning column (§4.8).
      const twinCell = column(t, row, 'deprecated twin');
      const meaning = column(t, row, 'meaning') ?? column(t, row, 'owner') ?? '';
      const prose = /Deprecated twin `([a-z_]+)\{([^}]*)\}`/.exec(meaning);
      if (twinCell !== undefined && !twinCell.startsWith('—')) {
        const name = names(twinCell)[0];
        if (name === undefined) throw new Error(`unreadable twin "${twinCell}"`);
        const twin = twinLabels(twinCell, labels, tableTwinDefault(t, labels));
        out.push({ name, type, labels: twin.sort(), buckets: b, section: t.section, twinOf: current });
        buckets.remember(name, b);
      } else if (prose !== null) {
        const twin = (prose[2] as string).split(',').map((l) => l.trim());
        out.push({ name: prose[1] as string, type, labels: twin.sort(), buckets: b, section: t.section, twinOf: current });
      }
    }
  }
  return out;
}
