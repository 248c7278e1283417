import type { MetricFamily, MetricType, PrometheusParseOptions, PrometheusParseResult, Sample } from './types.js';

const TYPES = new Set<string>(['counter', 'gauge', 'histogram', 'gaugehistogram', 'summary', 'info', 'stateset', 'untyped', 'unknown']);

/** Sample-name suffixes each family type owns (Prometheus text 0.0.4 and OpenMetrics). */
const SUFFIXES: Readonly<Record<string, readonly string[]>> = {
  counter: ['_total', '_created'],
  histogram: ['_bucket', '_count', '_sum', '_created'],
  gaugehistogram: ['_bucket', '_gcount', '_gsum'],
  summary: ['_count', '_sum', '_created'],
  info: ['_info'],
};
const ALL_SUFFIXES = ['_bucket', '_count', '_sum', '_total', '_created', '_gcount', '_gsum', '_info'];

interface MutableFamily {
  name: string;
  type: MetricType;
  help: string | undefined;
  samples: Sample[];
}

class LineError extends Error {}

const isNameStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58;
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 48 && c <= 57);
const isLabelStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isLabelChar = (c: number): boolean => isLabelStart(c) || (c >= 48 && c <= 57);
const isSpace = (c: number): boolean => c === 32 || c === 9;

const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INF = /^[+-]?inf(?:inity)?$/i;

/** Parses a sample value as Go's ParseFloat would for exposition text (no hex). */
function parseValue(tok: string): number {
  if (FLOAT.test(tok)) return Number(tok);
  if (INF.test(tok)) return tok.startsWith('-') ? -Infinity : Infinity;
  if (tok.toLowerCase() === 'nan') return NaN;
  throw new LineError(`bad value "${tok}"`);
}

/** Integer timestamps are milliseconds (text 0.0.4); fractional ones are OpenMetrics seconds. */
function parseTimestamp(tok: string): number {
  if (/^-?\d+$/.test(tok)) return Number(tok);
  if (FLOAT.test(tok)) return Math.round(Number(tok) * 1000);
  throw new LineError(`bad timestamp "${tok}"`);
}

/** Resolves `\\`, `\"` and `\n`; other escapes are kept verbatim (as Prometheus does). */
function unescape(s: string, quoteAllowed: boolean): string {
  if (!s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch !== '\\' || i + 1 >= s.length) {
      out += ch ?? '';
      continue;
    }
    const next = s[i + 1];
    if (next === '\\') out += '\\';
    else if (next === 'n') out += '\n';
    else if (next === '"' && quoteAllowed) out += '"';
    else out += `\\${next ?? ''}`;
    i++;
  }
  return out;
}

/** Reads a quoted string starting at `line[pos] === '"'`; returns [value, position after the quote]. */
function readQuoted(line: string, pos: number): [string, number] {
  let i = pos + 1;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (c === 92) i += 2;
    else if (c === 34) return [unescape(line.slice(pos + 1, i), true), i + 1];
    else i++;
  }
  throw new LineError('unterminated quoted string');
}

/** Scans an exposition text line by line; see {@link parsePrometheusExposition}. */
class ExpositionParser {
  readonly families: MutableFamily[] = [];
  readonly #byName = new Map<string, MutableFamily>();
  readonly #filter: ((name: string) => boolean) | undefined;
  #last: MutableFamily | undefined;
  invalidLines = 0;
  firstInvalidLine: number | undefined;

  constructor(filter: ((name: string) => boolean) | undefined) {
    this.#filter = filter;
  }

  line(raw: string, lineNo: number): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    try {
      let p = 0;
      while (p < line.length && isSpace(line.charCodeAt(p))) p++;
      if (p === line.length) return;
      if (line.charCodeAt(p) === 35) this.#comment(line.slice(p));
      else this.#sample(line, p);
    } catch {
      this.invalidLines++;
      this.firstInvalidLine ??= lineNo;
    }
  }

  #family(name: string): MutableFamily {
    let fam = this.#byName.get(name);
    if (fam === undefined) {
      fam = { name, type: 'untyped', help: undefined, samples: [] };
      this.#byName.set(name, fam);
      this.families.push(fam);
    }
    return fam;
  }

  #comment(line: string): void {
    const m = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t]+(.*))?$/s.exec(line);
    if (m === null) return; // other comments (and `# EOF`, `# UNIT`) carry nothing we use
    const [, kind, rawName = '', rest = ''] = m;
    const name = rawName.startsWith('"') ? readQuoted(rawName, 0)[0] : rawName;
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name) && !rawName.startsWith('"')) throw new LineError('bad metric name');
    if (kind === 'TYPE') {
      const type = rest.trim().toLowerCase();
      if (!TYPES.has(type)) throw new LineError(`unknown type "${type}"`);
      this.#family(name).type = type as MetricType;
    } else {
      this.#family(name).help = unescape(rest, false);
    }
  }

  /** The family a sample name belongs to: its own, or a declared family owning its suffix. */
  #familyOf(sampleName: string): MutableFamily {
    const last = this.#last;
    if (last !== undefined && (last.name === sampleName || owns(last, sampleName))) return last;
    const own = this.#byName.get(sampleName);
    if (own !== undefined) return own;
    for (const suffix of ALL_SUFFIXES) {
      if (!sampleName.endsWith(suffix)) continue;
      const base = this.#byName.get(sampleName.slice(0, -suffix.length));
      if (base !== undefined && owns(base, sampleName)) return base;
    }
    // Registered only once a sample parses, so garbage lines leave no empty families behind.
    return { name: sampleName, type: 'untyped', help: undefined, samples: [] };
  }

  #sample(line: string, start: number): void {
    let p = start;
    let name: string | undefined;
    if (line.charCodeAt(p) !== 123) {
      if (!isNameStart(line.charCodeAt(p))) throw new LineError('bad metric name');
      while (p < line.length && isNameChar(line.charCodeAt(p))) p++;
      name = line.slice(start, p);
    }
    const labels: Record<string, string> = Object.create(null) as Record<string, string>;
    let family: MutableFamily | undefined;
    if (name !== undefined) {
      family = this.#familyOf(name);
      if (this.#filter !== undefined && !this.#filter(family.name)) return;
    }
    while (p < line.length && isSpace(line.charCodeAt(p))) p++;
    if (line.charCodeAt(p) === 123) {
      [p, name] = this.#labels(line, p + 1, labels, name);
      if (family === undefined) {
        if (name === undefined) throw new LineError('missing metric name');
        family = this.#familyOf(name);
        if (this.#filter !== undefined && !this.#filter(family.name)) return;
      }
    } else if (p === start + (name?.length ?? 0)) {
      throw new LineError('expected whitespace after the metric name');
    }
    if (name === undefined || family === undefined) throw new LineError('missing metric name');
    const rest = line.slice(p).trim();
    const hash = rest.indexOf(' #'); // OpenMetrics exemplar: ignored
    const tokens = (hash === -1 ? rest : rest.slice(0, hash)).split(/[ \t]+/);
    if (tokens.length < 1 || tokens.length > 2 || tokens[0] === '') throw new LineError('expected a value and an optional timestamp');
    const value = parseValue(tokens[0] ?? '');
    const timestampMs = tokens[1] === undefined ? undefined : parseTimestamp(tokens[1]);
    if (family.samples.length === 0 && this.#byName.get(family.name) !== family) {
      this.#byName.set(family.name, family);
      this.families.push(family);
    }
    family.samples.push({ name, labels, value, timestampMs });
    this.#last = family;
  }

  /** Parses `a="x",b="y"}` (position after `{`); a bare quoted string is the metric name (UTF-8 names). */
  #labels(line: string, pos: number, into: Record<string, string>, name: string | undefined): [number, string | undefined] {
    let p = pos;
    let metricName = name;
    let first = true;
    for (;;) {
      while (p < line.length && isSpace(line.charCodeAt(p))) p++;
      if (line.charCodeAt(p) === 125) return [p + 1, metricName];
      let label: string;
      if (line.charCodeAt(p) === 34) {
        [label, p] = readQuoted(line, p);
      } else {
        const s = p;
        if (!isLabelStart(line.charCodeAt(p))) throw new LineError('bad label name');
        while (p < line.length && isLabelChar(line.charCodeAt(p))) p++;
        label = line.slice(s, p);
      }
      while (p < line.length && isSpace(line.charCodeAt(p))) p++;
      if (line.charCodeAt(p) === 61) {
        p++;
        while (p < line.length && isSpace(line.charCodeAt(p))) p++;
        if (line.charCodeAt(p) !== 34) throw new LineError('expected a quoted label value');
        let value: string;
        [value, p] = readQuoted(line, p);
        if (Object.hasOwn(into, label)) throw new LineError(`duplicate label "${label}"`);
        into[label] = value;
      } else if (metricName === undefined && first) {
        metricName = label; // `{"my.metric", a="b"}`
      } else {
        throw new LineError('expected "="');
      }
      while (p < line.length && isSpace(line.charCodeAt(p))) p++;
      const c = line.charCodeAt(p);
      if (c === 44) p++;
      else if (c !== 125) throw new LineError('expected "," or "}"');
      first = false;
    }
  }
}

function owns(family: MutableFamily, sampleName: string): boolean {
  const suffixes = SUFFIXES[family.type];
  if (suffixes === undefined || !sampleName.startsWith(family.name)) return false;
  const suffix = sampleName.slice(family.name.length);
  return suffixes.includes(suffix);
}

/**
 * Parses Prometheus text exposition (0.0.4, and the OpenMetrics features model servers emit):
 * `# HELP`/`# TYPE`, labels with `\\`, `\"`, `\n` escapes, `NaN`/`+Inf`/`-Inf`, optional
 * timestamps, histogram/summary/counter suffixes grouped under their family, exemplars ignored.
 * Lines that cannot be parsed are skipped and counted. Never throws.
 * @public
 */
export function parsePrometheusExposition(text: string, options: PrometheusParseOptions = {}): PrometheusParseResult {
  const parser = new ExpositionParser(options.filter);
  if (typeof text === 'string') {
    let start = 0;
    let lineNo = 1;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      parser.line(text.slice(start, end), lineNo++);
      start = end + 1;
    }
  }
  const families = options.filter === undefined ? parser.families : parser.families.filter((f) => f.samples.length > 0 || options.filter?.(f.name) === true);
  return { families, invalidLines: parser.invalidLines, firstInvalidLine: parser.firstInvalidLine };
}

/**
 * Parses Prometheus text exposition into metric families (see {@link parsePrometheusExposition}
 * for the skipped-line count). Never throws.
 * @public
 */
export function parsePrometheusText(text: string, options: PrometheusParseOptions = {}): MetricFamily[] {
  return parsePrometheusExposition(text, options).families;
}
