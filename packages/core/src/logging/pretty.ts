const LEVELS: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, shown in the line's head rather than as `key=value`. */
const HEAD = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name']);

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/**
 * Renders one JSON log line for a person at a terminal: `12:00:01.234 WARN  message key=value`.
 * A line that is not a JSON object is returned as it is.
 * @public
 */
export function formatLogLine(line: string): string {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line.replace(/\n$/, '');
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return line.replace(/\n$/, '');
  const e = entry as Record<string, unknown>;
  const time = typeof e.time === 'number' ? new Date(e.time).toISOString().slice(11, 23) : '';
  const level = (typeof e.level === 'number' ? LEVELS[e.level] : undefined) ?? (typeof e.level === 'string' ? e.level : '');
  const rest = Object.entries(e)
    .filter(([k]) => !HEAD.has(k))
    .map(([k, v]) => `${k}=${value(v)}`)
    .join(' ');
  return `${time} ${level.padEnd(5)} ${typeof e.msg === 'string' ? e.msg : ''}${rest === '' ? '' : ` ${rest}`}`;
}
