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

/** End position of the last {@link readQuoted} (avoids allocating a tuple per label). */
let quotedEnd = 0;

/** Reads a quoted string starting at `line[pos] === '"'`; sets {@link quotedEnd} past the closing quote. */
function readQuoted(line: string, pos: number): string {
  let close = line.indexOf('"', pos + 1);
  const slash = line.indexOf('\\', pos + 1);
  if (slash === -1 || (close !== -1 && slash > close)) {
    // Fast path: no escapes inside, so the next quote closes the string.
    if (close === -1) throw new LineError('unterminated quoted string');
    quotedEnd = close + 1;
    return line.slice(pos + 1, close);
  }
  let i = pos + 1;
  for (;;) {
    if (i >= line.length) throw new LineError('unterminated quoted string');
    const c = line.charCodeAt(i);
    if (c === 92) i += 2;
    else if (c === 34) break;
    else i++;
  }
  close = i;
  quotedEnd = close + 1;
  return unescape(line.slice(pos + 1, close), true);
}

const NAME = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const LABEL = /[a-zA-Z_][a-zA-Z0-9_]*/y;

/** End of the token matched by a sticky regex at `pos`, or -1. */
function matchEnd(re: RegExp, line: string, pos: number): number {
  re.lastIndex = pos;
  return re.test(line) ? re.lastIndex : -1;
}

/** Scans an exposition text line by line; see {@link parsePrometheusExposition}. */
class ExpositionParser {
  readonly families: MutableFamily[] = [];
  readonly #byName = new Map<string, MutableFamily>();
  readonly #filter: ((name: string) => boolean) | undefined;
  #last: MutableFamily | undefined;
  /** The family the filter last turned down: its other samples (histogram buckets) usually follow. */
  #rejected: MutableFamily | undefined;
  /** Position after the label block last parsed by `#labels` (avoids a tuple per line). */
  #pos = 0;
  invalidLines = 0;
  firstInvalidLine: number | undefined;
  /** Groups of `until` not satisfied yet; once none is left, the first turned-down sample ends the parse. */
  readonly #pending: Set<readonly string[]> | undefined;
  /** True once everything `until` asked for was read and a later family began. */
  done = false;

  constructor(filter: ((name: string) => boolean) | undefined, until: Iterable<readonly string[]> | undefined) {
    this.#filter = filter;
    this.#pending = until === undefined ? undefined : new Set(until);
  }

  #satisfy(familyName: string): void {
    const pending = this.#pending;
    if (pending === undefined || pending.size === 0) return;
    for (const group of pending) if (group.includes(familyName)) pending.delete(group);
  }

  #turnDown(family: MutableFamily): void {
    this.#rejected = family;
    // Expositions keep a family's samples together, so a later family means the wanted ones are over.
    if (this.#pending?.size === 0) this.done = true;
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
    // A declaration may claim the names of the family last turned down (an untyped `x_total`
    // before `# TYPE x counter`): that shortcut ends here.
    this.#rejected = undefined;
    const name = rawName.startsWith('"') ? readQuoted(rawName, 0) : rawName;
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
    // The filter decides by family name only, so a sample of the family it just turned down needs
    // no lookup; unless a family of the sample's own name exists, which a full lookup would pick.
    const rejected = this.#rejected;
    if (rejected !== undefined && (rejected.name === sampleName || (owns(rejected, sampleName) && !this.#byName.has(sampleName)))) return rejected;
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
    let family: MutableFamily | undefined;
    if (line.charCodeAt(p) !== 123) {
      p = matchEnd(NAME, line, p);
      if (p === -1) throw new LineError('bad metric name');
      name = line.slice(start, p);
      family = this.#familyOf(name);
      if (this.#filter !== undefined && !this.#filter(family.name)) {
        this.#turnDown(family);
        return;
      }
    }
    const labels: Record<string, string> = Object.create(null) as Record<string, string>;
    const afterName = p;
    while (isSpace(line.charCodeAt(p))) p++;
    if (line.charCodeAt(p) === 123) {
      name = this.#labels(line, p + 1, labels, name);
      p = this.#pos;
      if (family === undefined) {
        if (name === undefined) throw new LineError('missing metric name');
        family = this.#familyOf(name);
        if (this.#filter !== undefined && !this.#filter(family.name)) {
          this.#turnDown(family);
          return;
        }
      }
    } else if (p === afterName) {
      throw new LineError('expected whitespace after the metric name');
    }
    if (name === undefined || family === undefined) throw new LineError('missing metric name');
    // value [timestamp] [# exemplar]
    while (isSpace(line.charCodeAt(p))) p++;
    let end = p;
    while (end < line.length && !isSpace(line.charCodeAt(end))) end++;
    if (end === p) throw new LineError('missing value');
    const value = parseValue(line.slice(p, end));
    p = end;
    while (isSpace(line.charCodeAt(p))) p++;
    let timestampMs: number | undefined;
    if (p < line.length && line.charCodeAt(p) !== 35) {
      end = p;
      while (end < line.length && !isSpace(line.charCodeAt(end))) end++;
      timestampMs = parseTimestamp(line.slice(p, end));
      p = end;
      while (isSpace(line.charCodeAt(p))) p++;
    }
    if (p < line.length && line.charCodeAt(p) !== 35) throw new LineError('unexpected text after the value');
    if (family.samples.length === 0 && this.#byName.get(family.name) !== family) {
      this.#byName.set(family.name, family);
      this.families.push(family);
    }
    family.samples.push({ name, labels, value, timestampMs });
    if (family.samples.length === 1) this.#satisfy(family.name);
    this.#last = family;
  }

  /**
   * Parses `a="x",b="y"}` (position after `{`) into `into`, leaving the position after `}` in
   * `#pos`; a bare quoted string in first place is the metric name (UTF-8 names). Returns the name.
   */
  #labels(line: string, pos: number, into: Record<string, string>, name: string | undefined): string | undefined {
    let p = pos;
    let metricName = name;
    let first = true;
    for (;;) {
      while (isSpace(line.charCodeAt(p))) p++;
      if (line.charCodeAt(p) === 125) {
        this.#pos = p + 1;
        return metricName;
      }
      let label: string;
      if (line.charCodeAt(p) === 34) {
        label = readQuoted(line, p);
        p = quotedEnd;
      } else {
        const e = matchEnd(LABEL, line, p);
        if (e === -1) throw new LineError('bad label name');
        label = line.slice(p, e);
        p = e;
      }
      while (isSpace(line.charCodeAt(p))) p++;
      if (line.charCodeAt(p) === 61) {
        p++;
        while (isSpace(line.charCodeAt(p))) p++;
        if (line.charCodeAt(p) !== 34) throw new LineError('expected a quoted label value');
        const value = readQuoted(line, p);
        p = quotedEnd;
        if (label in into) throw new LineError(`duplicate label "${label}"`);
        into[label] = value;
      } else if (metricName === undefined && first) {
        metricName = label; // `{"my.metric", a="b"}`
      } else {
        throw new LineError('expected "="');
      }
      while (isSpace(line.charCodeAt(p))) p++;
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
 * @category Model-server metrics
 */
export function parsePrometheusExposition(text: string, options: PrometheusParseOptions = {}): PrometheusParseResult {
  const parser = new ExpositionParser(options.filter, options.filter === undefined ? undefined : options.until);
  if (typeof text === 'string') {
    let start = 0;
    let lineNo = 1;
    while (start <= text.length && !parser.done) {
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
 * @category Model-server metrics
 */
export function parsePrometheusText(text: string, options: PrometheusParseOptions = {}): MetricFamily[] {
  return parsePrometheusExposition(text, options).families;
}
