/*
 * The docs pages state option defaults in tables; each such table is marked with the constant it
 * restates (`<!-- option-defaults: GATEWAY_DEFAULTS [column=NAME] [complete] -->` on the line
 * before it). This test reads every marked table and checks each row's default against the
 * constant: the option is the first code span of the option column (`option` unless `column=`
 * names another), the default the first code span of the `default` column. A `complete` table must
 * list every option the constant defaults. Rows naming no option (prose such as "llm-d's") may not
 * state a default in code either, except in a `mixed` table (limits of several components), whose
 * rows that name none of the constant's options are not its to check.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTION_TYPES, defaultAt, leafPaths, parseDefaultLiteral } from './support/option-types.js';

const PAGES = ['docs/gateway.md', 'docs/envoy.md', 'docs/config.md', 'docs/security.md', 'docs/scheduling.md', 'docs/flow-control.md'];
const MARKER = /^<!-- option-defaults: (\w+)((?: [\w=-]+)*) -->$/;

interface MarkedTable {
  readonly page: string;
  readonly line: number;
  readonly constant: string;
  readonly column: string;
  readonly complete: boolean;
  readonly mixed: boolean;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** Splits a markdown table row into trimmed cells (a `|` inside a code span is not a separator). */
function cells(row: string): string[] {
  const out: string[] = [];
  let cell = '';
  let code = false;
  for (const ch of row.trim().replace(/^\|/, '').replace(/\|$/, '')) {
    if (ch === '`') code = !code;
    if (ch === '|' && !code) {
      out.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  out.push(cell.trim());
  return out;
}

function markedTables(page: string): MarkedTable[] {
  const lines = readFileSync(new URL(`../${page}`, import.meta.url), 'utf8').split('\n');
  const tables: MarkedTable[] = [];
  lines.forEach((text, i) => {
    const m = MARKER.exec(text.trim());
    if (m === null) return;
    const flags = (m[2] ?? '').trim().split(' ').filter((f) => f !== '');
    const column = flags.find((f) => f.startsWith('column='))?.slice('column='.length) ?? 'option';
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j] ?? '').trim().startsWith('|'); j++) body.push(lines[j] ?? '');
    const [header = '', , ...rows] = body;
    tables.push({ page, line: i + 1, constant: m[1] ?? '', column, complete: flags.includes('complete'), mixed: flags.includes('mixed'), header: cells(header), rows: rows.map(cells) });
  });
  return tables;
}

const firstCode = (cell: string): string | undefined => /`([^`]+)`/.exec(cell)?.[1];

const TABLES = PAGES.flatMap(markedTables);

describe('docs option tables against the *_DEFAULTS constants', () => {
  it('finds a marked table for every options type', () => {
    expect(TABLES.length).toBeGreaterThan(0);
    const complete = new Set(TABLES.filter((t) => t.complete).map((t) => t.constant));
    expect(OPTION_TYPES.map((t) => t.name).filter((n) => !complete.has(n)), 'constants without a complete docs table').toEqual([]);
  });

  it.each(TABLES.map((t) => [`${t.page}:${t.line} ${t.constant}`, t] as const))('%s', (_where, table) => {
    const type = OPTION_TYPES.find((t) => t.name === table.constant);
    expect(type, `unknown constant ${table.constant}`).toBeDefined();
    if (type === undefined) return;
    const optionCol = table.header.indexOf(table.column);
    const defaultCol = table.header.indexOf('default');
    expect(optionCol, `no "${table.column}" column`).toBeGreaterThanOrEqual(0);
    expect(defaultCol, 'no "default" column').toBeGreaterThanOrEqual(0);
    const listed: string[] = [];
    for (const row of table.rows) {
      const option = firstCode(row[optionCol] ?? '');
      const written = firstCode(row[defaultCol] ?? '');
      if (table.mixed && (option === undefined || !defaultAt(type.defaults, option).found)) continue;
      if (option === undefined) {
        expect(written, `a row naming no option states a default: ${row.join(' | ')}`).toBeUndefined();
        continue;
      }
      const { found, value } = defaultAt(type.defaults, option);
      expect(found, `${option} is not an option of ${type.name}`).toBe(true);
      expect(written, `${option}: the default cell has no value in code`).toBeDefined();
      expect(parseDefaultLiteral(written ?? ''), option).toEqual(value);
      listed.push(option);
    }
    expect(listed.length).toBeGreaterThan(0);
    if (table.complete) expect(leafPaths(type.defaults).filter((p) => !listed.includes(p)), 'options missing from the table').toEqual([]);
  });
});
