import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SwitchyardError } from '@switchyard/core';
import { gatewaySectionSchema, type GatewaySection } from './schema.js';
import { checkSectionOptions } from './handler-options.js';

/**
 * A config document split into the llm-d part and Switchyard's `gateway` section.
 * @public
 */
export interface SplitConfig {
  /** The EndpointPickerConfig without `gateway` (a bare apiVersion/kind document = llm-d defaults). */
  readonly endpointPicker: Record<string, unknown>;
  /** The validated, defaulted `gateway` section. */
  readonly gateway: GatewaySection;
}

/**
 * Parses YAML or JSON text into an object.
 * @throws SwitchyardError `CONFIG_INVALID` naming `where` when it is not a mapping
 * @public
 */
export function parseConfigDocument(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseYaml(text, { uniqueKeys: true });
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', `${where}: invalid YAML/JSON: ${err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err)}`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new SwitchyardError('CONFIG_INVALID', `${where}: expected a mapping at the top level`);
  return value as Record<string, unknown>;
}

/**
 * Splits a document (text or object) into the llm-d EndpointPickerConfig and the validated
 * `gateway` section, so the llm-d part loads with llm-d's strict rules unchanged.
 * @throws SwitchyardError `CONFIG_INVALID` naming the `gateway.*` path and the problem
 * @public
 */
export function splitConfig(source: string | Record<string, unknown> | undefined, where = 'config'): SplitConfig {
  const doc = source === undefined ? {} : typeof source === 'string' ? parseConfigDocument(source, where) : source;
  const { gateway, ...endpointPicker } = doc;
  const parsed = gatewaySectionSchema.safeParse(gateway ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['gateway', ...(issue?.path ?? []).map(String)].join('.');
    throw new SwitchyardError('CONFIG_INVALID', `${where}: ${path}: ${issue?.message ?? 'invalid'}`, { field: path });
  }
  checkSectionOptions(parsed.data, where);
  // Only a gateway section (or nothing): llm-d's defaults, as when EPP runs without a config file.
  const epp = Object.keys(endpointPicker).length === 0 ? { ...DEFAULT_DOCUMENT } : endpointPicker;
  return { endpointPicker: epp, gateway: parsed.data };
}

/** The EndpointPickerConfig used when a document has no llm-d content. */
const DEFAULT_DOCUMENT = { apiVersion: 'llm-d.ai/v1alpha1', kind: 'EndpointPickerConfig' } as const;

/**
 * Resolves a pool's own `config`: an inline document, or a file path relative to `baseDir`.
 * @public
 */
export async function resolvePoolDocument(config: string | Record<string, unknown> | undefined, fallback: Record<string, unknown>, baseDir: string, pool: string): Promise<Record<string, unknown>> {
  if (config === undefined) return fallback;
  if (typeof config !== 'string') return config;
  const path = resolve(baseDir, config);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', `gateway.pools["${pool}"].config: cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { gateway: _ignored, ...doc } = parseConfigDocument(text, path);
  return doc;
}

/** Directory of a config file path, for resolving relative pool configs. */
export const configDir = (path: string | undefined): string => (path === undefined ? process.cwd() : dirname(resolve(path)));
