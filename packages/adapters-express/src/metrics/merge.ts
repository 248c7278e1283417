interface Family {
  help: string | undefined;
  type: string | undefined;
  readonly samples: string[];
  readonly seen: Set<string>;
}

/** The series identity of a sample line: everything before the value. */
function seriesOf(line: string): string {
  const brace = line.lastIndexOf('}');
  const space = line.indexOf(' ', brace === -1 ? 0 : brace);
  return space === -1 ? line : line.slice(0, space);
}

/**
 * Merges several Prometheus text expositions (e.g. one registry per pool of a multi-model
 * gateway) into one valid exposition: metric families with the same name are joined under a
 * single `# HELP`/`# TYPE` header, and a series that appears twice keeps its first value, so
 * `promtool check metrics` sees no duplicates.
 * @public
 * @category Metrics
 */
export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let f = families.get(name);
    if (f === undefined) {
      f = { help: undefined, type: undefined, samples: [], seen: new Set() };
      families.set(name, f);
    }
    return f;
  };
  for (const text of texts) {
    let current: Family | undefined;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) {
        const rest = line.slice(7);
        const cut = rest.indexOf(' ');
        const name = cut === -1 ? rest : rest.slice(0, cut);
        current = family(name);
        const value = cut === -1 ? '' : rest.slice(cut + 1);
        if (line[2] === 'H') current.help ??= value;
        else current.type ??= value;
        continue;
      }
      if (line.startsWith('#')) continue;
      // Samples follow their family header (prom-client always writes one); stray ones get their own.
      const f = current ?? family(seriesOf(line).split('{')[0] ?? line);
      const series = seriesOf(line);
      if (f.seen.has(series)) continue;
      f.seen.add(series);
      f.samples.push(line);
    }
  }
  const out: string[] = [];
  for (const [name, f] of families) {
    if (f.help !== undefined) out.push(`# HELP ${name} ${f.help}`);
    if (f.type !== undefined) out.push(`# TYPE ${name} ${f.type}`);
    out.push(...f.samples);
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}
