import type { MetricSelector } from '../../model-metrics/engine-mappings.js';

/**
 * Parses an llm-d metric spec string, `name` or `name{label=value,other="v"}`, into a
 * {@link MetricSelector}. An empty spec means "metric disabled" and yields undefined.
 * @throws Error naming the spec when it is malformed (the loader prefixes the config path)
 * @public
 */
export function parseMetricSpec(spec: string): MetricSelector | undefined {
  const text = spec.trim();
  if (text === '') return undefined;
  const open = text.indexOf('{');
  if (open === -1) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(text)) throw new Error(`invalid metric spec "${spec}": bad metric name`);
    return { name: text };
  }
  if (!text.endsWith('}')) throw new Error(`invalid metric spec "${spec}": missing closing "}"`);
  const name = text.slice(0, open).trim();
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`invalid metric spec "${spec}": bad metric name`);
  const pairs: [string, string][] = [];
  const body = text.slice(open + 1, -1).trim();
  if (body !== '') {
    for (const pair of body.split(',')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new Error(`invalid metric spec "${spec}": label "${pair.trim()}" is not key=value`);
      const key = pair.slice(0, eq).trim();
      // Quotes are optional in llm-d's spec syntax; strip one pair if present.
      const value = pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(key)) throw new Error(`invalid metric spec "${spec}": bad label name "${key}"`);
      pairs.push([key, value]);
    }
  }
  // fromEntries defines own properties, so a label named `__proto__` stays a plain label.
  return pairs.length === 0 ? { name } : { name, labels: Object.fromEntries(pairs) };
}
