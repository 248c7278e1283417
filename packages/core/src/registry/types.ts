import type { z } from 'zod';
import type { Registry } from 'prom-client';
import type { Clock } from '../clock/clock.js';
import type { EndpointPool } from '../endpoints/pool.js';
import type { Plugin } from '../scheduling/plugins.js';
import type { SharedState } from '../state/types.js';

/**
 * What a plugin factory receives besides its parameters.
 * @public
 * @category Plugin registry and packs
 */
export interface PluginFactoryContext {
  /** Instance name from the config (defaults to the type). */
  readonly name: string;
  /** Time source shared by the whole picker. */
  readonly clock: Clock;
  /** The endpoint pool the picker schedules over. */
  readonly pool: EndpointPool;
  /** Looks up another plugin instance of the same config by name (for plugins that reference others). */
  readonly lookup: (name: string) => Plugin | undefined;
  /**
   * State shared with the other replicas of this picker, when sharing is on (`--redis-url`):
   * plugins that keep routing history or session bindings publish to it and apply what peers
   * publish. Undefined means one replica (today's behaviour).
   */
  readonly sharedState?: SharedState | undefined;
  /**
   * The picker's Prometheus registry, for plugins that record llm-d's plugin metrics (register
   * each family once per registry: several pools may share it). Undefined: record none.
   */
  readonly metrics?: Registry | undefined;
}

/**
 * How to build one plugin type from config parameters. Register definitions in a
 * `PluginRegistry`; built-ins and user plugins use the same mechanism.
 * @example
 * ```ts
 * const constantScorer = definePlugin({
 *   type: 'constant-scorer',
 *   parameters: z.strictObject({ value: z.number().min(0).max(1).default(1) }),
 *   create: (p, ctx) => ({ type: 'constant-scorer', name: ctx.name, score: (_c, _r, eps) => new Map(eps.map((e) => [e.id, p.value])) }),
 * });
 * ```
 * @public
 * @category Plugin registry and packs
 */
export interface PluginDefinition<TParams = unknown> {
  /** Registry key, e.g. `queue-scorer`. */
  readonly type: string;
  /** Validates and defaults the `parameters` object of the config (use strict objects). */
  readonly parameters: z.ZodType<TParams>;
  /**
   * Builds an instance. May implement several plugin interfaces at once (e.g. a detector that is
   * also a filter). Declared as a method so a `PluginDefinition<X>` fits in a `PluginDefinition[]`.
   */
  create(params: TParams, ctx: PluginFactoryContext): Plugin;
  /** Attribute names the instances read; the loader auto-creates a default producer for each that nothing produces. */
  readonly consumes?: readonly string[];
  /** Attribute names the instances write (for producers). */
  readonly produces?: readonly string[];
  /** When set, the loader creates an instance of this type (default parameters) if one of these attributes is consumed but not produced. */
  readonly defaultProducerFor?: readonly string[];
  /**
   * Parameters llm-d accepts that this type loads without acting on (dotted paths inside
   * `parameters` → why). The loader removes them before `parameters` validates the rest, and
   * reports each one in `LoadedConfig.notActedOn`, so an llm-d config never fails on them.
   */
  readonly notActedOn?: Readonly<Record<string, string>>;
  /**
   * Types the loader creates (with default parameters, named after the type) when the document
   * has no instance of them, because an instance of this type needs them to work (llm-d's
   * `Registrant`: `models-responder` brings its `models-data-source` and `models-data-extractor`).
   */
  readonly requires?: readonly string[];
  /** Alpha plugins need `allowExperimental` at load time. */
  readonly experimental?: boolean;
  /** One-line description, shown in docs and errors. */
  readonly description?: string;
}

/**
 * Identity helper that infers `TParams` from the schema.
 * @public
 * @category Plugin registry and packs
 */
export function definePlugin<TParams>(definition: PluginDefinition<TParams>): PluginDefinition<TParams> {
  return definition;
}
