import { z } from 'zod';
import { parseConfigText } from '../config/parse-source.js';
import { SwitchyardError } from '../errors/switchyard-error.js';

/**
 * The console switch of a config file: `console: { enabled, decisions, stalenessMs, traceHeader }`.
 * @public
 * @category Decision console
 */
export interface ConsoleSettings {
  /** Serve `/console`. @default false */
  readonly enabled: boolean;
  /** Recent decisions kept. @default 200 */
  readonly decisions: number;
  /** Metrics older than this show an endpoint as stale (ms). @default 5000 */
  readonly stalenessMs: number;
  /**
   * Add `x-switchyard-decision-trace` (a compact trace of the decision) to every response;
   * independent of `enabled`. @default false
   */
  readonly traceHeader: boolean;
}

/**
 * Schema of the `console` section (shared by the gateway's `gateway.console` and the EPP's
 * top-level `console`).
 * @public
 * @category Decision console
 */
export const consoleSettingsSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    decisions: z.number().int().min(1).max(100_000).default(200),
    stalenessMs: z.number().positive().default(5000),
    traceHeader: z.boolean().default(false),
  })
  .prefault({});

/**
 * Takes Switchyard's top-level `console` section out of an EndpointPickerConfig (YAML/JSON text
 * or parsed document), so the rest loads with llm-d's strict rules unchanged.
 * @returns the document without `console` (undefined: no document) and the validated settings
 * @throws SwitchyardError `CONFIG_INVALID` naming `console.<field>` and the problem
 * @public
 * @category Decision console
 */
export function splitConsoleSection(source: string | Record<string, unknown> | undefined): { readonly document: Record<string, unknown> | undefined; readonly console: ConsoleSettings } {
  const doc = typeof source === 'string' ? parseConfigText(source) : source;
  if (doc === undefined || doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return { document: doc as Record<string, unknown> | undefined, console: consoleSettingsSchema.parse(undefined) };
  }
  const { console: section, ...rest } = doc as Record<string, unknown>;
  const parsed = consoleSettingsSchema.safeParse(section);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['console', ...(issue?.path ?? []).map(String)].join('.');
    throw new SwitchyardError('CONFIG_INVALID', `${path}: ${issue?.message ?? 'invalid'}`);
  }
  return { document: rest, console: parsed.data };
}
