import { afterAll, describe, expect, it } from 'vitest';
import { createDefaultRegistry, parsePluginParameters, type PluginRegistry } from '@switchyard/core';
import { flowControlPlugins } from '@switchyard/flow-control';
import { loadPrefixIndexPlugins } from '@switchyard/prefix-index';
import { LLM_D_PLUGIN_TYPES } from './llm-d-catalogue.js';
import { KNOWN_MISSING_TYPES, KNOWN_REJECTED_PARAMETERS } from './known-gaps.js';

// The registry a `switchyard-epp` or `switchyard-gateway` config loads against.
async function fullRegistry(): Promise<PluginRegistry> {
  const registry = createDefaultRegistry();
  for (const def of flowControlPlugins) if (!registry.has(def.type)) registry.register(def);
  for (const def of await loadPrefixIndexPlugins()) registry.register(def, { replace: true });
  return registry;
}

interface Gaps {
  readonly missingTypes: string[];
  readonly rejected: { key: string; message: string }[];
  /** Probes that load with at least one parameter accepted but not acted on. */
  readonly notActedOn: string[];
}

async function measure(): Promise<Gaps> {
  const registry = await fullRegistry();
  const gaps: Gaps = { missingTypes: [], rejected: [], notActedOn: [] };
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
      else if (parsed.notActedOn.length > 0) gaps.notActedOn.push(`${entry.type}.${probe.parameter}`);
    }
  }
  return gaps;
}

let report = '';
afterAll(() => {
  // The progress report: what of llm-d's catalogue does not load yet.
  if (report !== '') console.log(report);
});

describe("llm-d's plugin catalogue against the full registry", () => {
  it('knows every type and accepts every parameter, except the recorded gaps', async () => {
    const gaps = await measure();
    const probes = LLM_D_PLUGIN_TYPES.reduce((n, t) => n + t.probes.length, 0);
    report = [
      `llm-d catalogue: ${LLM_D_PLUGIN_TYPES.length} types, ${probes} parameter probes`,
      `missing types (${gaps.missingTypes.length}): ${gaps.missingTypes.join(', ')}`,
      `rejected parameters (${gaps.rejected.length}):`,
      ...gaps.rejected.map((r) => `  ${r.key}: ${r.message}`),
      `loaded but not acted on (${gaps.notActedOn.length}): ${gaps.notActedOn.join(', ')}`,
    ].join('\n');
    // A ratchet: a new gap fails, and so does a closed gap still listed as known.
    expect(gaps.missingTypes.sort()).toEqual([...KNOWN_MISSING_TYPES].sort());
    expect(gaps.rejected.map((r) => r.key).sort()).toEqual([...KNOWN_REJECTED_PARAMETERS].sort());
  });

  it('lists 97 types, as llm-d registers', () => {
    expect(new Set(LLM_D_PLUGIN_TYPES.map((t) => t.type)).size).toBe(97);
    expect(LLM_D_PLUGIN_TYPES.filter((t) => t.alpha)).toHaveLength(28);
  });
});
