import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createDefaultRegistry, parsePluginParameters, type PluginRegistry } from '@switchyard/core';
import { flowControlPlugins } from '@switchyard/flow-control';
import { loadPrefixIndexPlugins } from '@switchyard/prefix-index';
import { LLM_D_PLUGIN_TYPES } from './llm-d-catalogue.js';
import { KNOWN_INERT_TYPES, KNOWN_MISSING_TYPES, KNOWN_REJECTED_PARAMETERS } from './known-gaps.js';

// The registry a `switchyard-epp` or `switchyard-gateway` config loads against.
function fullRegistry(): PluginRegistry {
  const registry = createDefaultRegistry();
  for (const def of flowControlPlugins) if (!registry.has(def.type)) registry.register(def);
  for (const def of loadPrefixIndexPlugins()) registry.register(def, { replace: true });
  return registry;
}

interface Gaps {
  readonly missingTypes: string[];
  readonly rejected: { key: string; message: string }[];
  /** Probes that load with at least one parameter accepted but not acted on. */
  readonly notActedOn: string[];
  /** Per type: parameters accepted but not acted on. */
  readonly notActedOnByType: Map<string, Set<string>>;
}

function measure(): Gaps {
  const registry = fullRegistry();
  const gaps: Gaps = { missingTypes: [], rejected: [], notActedOn: [], notActedOnByType: new Map() };
  for (const entry of LLM_D_PLUGIN_TYPES) {
    const def = registry.get(entry.type);
    if (def === undefined) {
      gaps.missingTypes.push(entry.type);
      continue;
    }
    const probes = entry.probes.length === 0 ? [{ parameter: '(no parameters)', parameters: entry.required }] : entry.probes;
    for (const probe of probes) {
      const parsed = parsePluginParameters(def, probe.parameters);
      if (!parsed.success) gaps.rejected.push({ key: `${entry.type}.${probe.parameter}`, message: parsed.error.message });
      else if (parsed.notActedOn.length > 0) {
        gaps.notActedOn.push(`${entry.type}.${probe.parameter}`);
        const set = gaps.notActedOnByType.get(entry.type) ?? new Set<string>();
        for (const p of parsed.notActedOn) set.add(p.parameter);
        gaps.notActedOnByType.set(entry.type, set);
      }
    }
  }
  return gaps;
}

const DOC = new URL('../../../../docs/config.md', import.meta.url);
const START = '<!-- llm-d-compat:start -->';
const END = '<!-- llm-d-compat:end -->';

/** The compatibility table of docs/config.md, from the measured gaps. */
function compatibilityTable(gaps: Gaps): string {
  const missing = new Set(gaps.missingTypes);
  const rows = LLM_D_PLUGIN_TYPES.map((t) => {
    const ignored = [...(gaps.notActedOnByType.get(t.type) ?? [])].sort();
    const inert = KNOWN_INERT_TYPES[t.type];
    const status = missing.has(t.type) ? 'not yet' : ignored.length > 0 || inert !== undefined ? 'accepted-not-acted-on' : 'supported';
    const notes = [t.alpha ? 'alpha' : '', t.deprecated ? 'deprecated in llm-d' : '', ignored.map((p) => `\`${p}\``).join(', '), inert ?? ''].filter((n) => n !== '');
    return `| \`${t.type}\` | ${t.kind} | ${status} | ${notes.join('; ')} |`;
  });
  return ['| llm-d type | kind | status | notes (parameters not acted on) |', '|---|---|---|---|', ...rows].join('\n');
}

let report = '';
afterAll(() => {
  // The progress report: what of llm-d's catalogue does not load yet.
  if (report !== '') console.log(report);
});

describe("llm-d's plugin catalogue against the full registry", () => {
  it('knows every type and accepts every parameter, except the recorded gaps', () => {
    const gaps = measure();
    const probes = LLM_D_PLUGIN_TYPES.reduce((n, t) => n + t.probes.length, 0);
    report = [
      `llm-d catalogue: ${LLM_D_PLUGIN_TYPES.length} types, ${probes} parameter probes`,
      `missing types (${gaps.missingTypes.length}): ${gaps.missingTypes.join(', ')}`,
      `rejected parameters (${gaps.rejected.length}):`,
      ...gaps.rejected.map((r) => `  ${r.key}: ${r.message}`),
      `loaded but not acted on (${gaps.notActedOn.length}): ${gaps.notActedOn.join(', ')}`,
    ].join('\n');
    const doc = readFileSync(DOC, 'utf8');
    const table = compatibilityTable(gaps);
    const [before, rest] = doc.split(START) as [string, string];
    const after = rest.slice(rest.indexOf(END));
    if (process.env['UPDATE_COMPAT_TABLE'] === '1') writeFileSync(DOC, `${before}${START}\n${table}\n${after}`);
    else expect(rest.slice(0, rest.indexOf(END)).trim(), 'docs/config.md compatibility table is stale').toBe(table);
    // A ratchet: a new gap fails, and so does a closed gap still listed as known.
    expect(gaps.missingTypes.sort()).toEqual([...KNOWN_MISSING_TYPES].sort());
    expect(gaps.rejected.map((r) => r.key).sort()).toEqual([...KNOWN_REJECTED_PARAMETERS].sort());
  });

  it('lists 97 types, as llm-d registers', () => {
    expect(new Set(LLM_D_PLUGIN_TYPES.map((t) => t.type)).size).toBe(97);
    expect(LLM_D_PLUGIN_TYPES.filter((t) => t.alpha)).toHaveLength(28);
  });
});
