import type { Registry } from 'prom-client';
import { systemClock, type Clock } from '../clock/clock.js';
import type { EndpointPool } from '../endpoints/pool.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { PluginRegistry } from '../registry/plugin-registry.js';
import type { PluginFactoryContext } from '../registry/types.js';
import { abandonPlugins } from '../scheduling/close-plugins.js';
import type { DataProducer, Plugin, ProfileHandler, SchedulingProfile } from '../scheduling/plugins.js';
import type { SchedulerConfig } from '../scheduling/scheduler.js';
import type { RequestParser } from '../request/parser.js';
import type { SwitchyardSection } from '../state/settings.js';
import type { SharedState } from '../state/types.js';
import { isRequestParser } from '../request/parser-plugins.js';
import { SINGLE_PROFILE_HANDLER } from '../plugins/profile-handlers/single-profile-handler.js';
import { DATA_LAYER_NOT_ACTED_ON, resolveDataLayer, type DataLayerSettings } from './data-layer-settings.js';
import { effectiveDocument, printYaml } from './effective.js';
import { checkFlowControlRefs } from './flow-control-refs.js';
import { createInstances } from './instances.js';
import { configError, invalid } from './issues.js';
import { parseConfigText } from './parse-source.js';
import type { NotActedOnParameter } from './not-acted-on.js';
import { isProfileHandler } from './plugin-kinds.js';
import { completeProducers, type Instance } from './producers.js';
import { buildProfiles } from './profiles.js';
import { CONFIG_API_VERSIONS, KNOWN_FEATURE_GATES, endpointPickerConfigSchema, type EndpointPickerConfigDocument } from './schema.js';

/**
 * Options of {@link loadConfig}.
 * @public
 * @category Configuration
 */
export interface LoadConfigOptions {
  /** Plugin types available to the document. */
  readonly registry: PluginRegistry;
  /** The pool the plugins schedule over. */
  readonly pool: EndpointPool;
  /** Time source handed to plugins (default: the system clock). */
  readonly clock?: Clock | undefined;
  /** Allow plugin types marked experimental (llm-d's `--allow-experimental-plugins`). */
  readonly allowExperimental?: boolean | undefined;
  /** Feature gates accepted besides {@link KNOWN_FEATURE_GATES}. */
  readonly extraFeatureGates?: readonly string[] | undefined;
  /** State shared across replicas, handed to every plugin (see `PluginFactoryContext.sharedState`). */
  readonly sharedState?: SharedState | undefined;
  /** Registry handed to every plugin for its own metrics (see `PluginFactoryContext.metrics`). */
  readonly metrics?: Registry | undefined;
}

/**
 * A loaded `EndpointPickerConfig`: a runnable {@link SchedulerConfig} plus the document's other
 * sections and the effective (defaulted) document.
 * @public
 * @category Configuration
 */
export interface LoadedConfig extends SchedulerConfig {
  /** The document's apiVersion. */
  readonly apiVersion: string;
  /** Enabled feature gates. */
  readonly featureGates: readonly string[];
  /** The `flowControl` block as written (validated in depth by `@switchyard/flow-control`). */
  readonly flowControl: Record<string, unknown> | undefined;
  /** The `dataLayer` block as written. */
  readonly dataLayer: Record<string, unknown> | undefined;
  /** Switchyard's own `switchyard` section as validated (shared state, `Prefer: if-available`). */
  readonly switchyard: SwitchyardSection | undefined;
  /** The effective data layer: metrics scrape settings (path, interval, engine mappings) for `MetricsScraper`. */
  readonly dataLayerSettings: DataLayerSettings;
  /** The `requestHandler` block as written (with the deprecated top-level `parser` moved in). */
  readonly requestHandler: Record<string, unknown> | undefined;
  /**
   * The request parsers `requestHandler.parsers` names, in order (plugins of the document, or
   * parser types created with their defaults when no plugin has that name); undefined when the
   * document names none, so the caller's default list applies (core's `BUILTIN_REQUEST_PARSERS`).
   * A list without a fallback parser (`passthrough-parser`) rejects unclaimed paths with 400.
   */
  readonly parsers: readonly RequestParser[] | undefined;
  /** The effective document (defaults applied, auto-created plugins included). */
  readonly effective: Record<string, unknown>;
  /**
   * Parameters llm-d accepts that this document sets and Switchyard does not act on, one entry
   * per plugin and parameter. Log them once (`formatNotActedOn`) and expose them
   * (`SchedulerMetrics.recordNotActedOn`); they stay in the effective document.
   */
  readonly notActedOn: readonly NotActedOnParameter[];
  /** True when `gate` is enabled. */
  hasFeatureGate(gate: string): boolean;
  /** The effective document as YAML; it loads back to the same configuration. */
  printEffectiveConfig(): string;
}

function nextName(taken: (n: string) => boolean, type: string): string {
  let name = type;
  for (let n = 2; taken(name); n++) name = `${type}-${n}`;
  return name;
}

/**
 * Loads an llm-d `EndpointPickerConfig` (YAML or JSON text, or an already parsed object; undefined,
 * null or a text with no document means no config, i.e. all defaults) with
 * strict decoding and llm-d's defaulting rules (see docs/config.md): names default to types;
 * without profiles a `default` profile holds every filter, scorer and picker, and a config without
 * scorers gets queue-scorer 2, kv-cache-utilization-scorer 2 and (when registered)
 * prefix-cache-scorer 3; profiles without a picker get `max-score-picker`; one profile and no
 * handler gets `single-profile-handler`; consumed attributes without a producer get their
 * registered default producer; the registry's packs add their default types when missing (flow
 * control's policies when the `flowControl` gate is on).
 * When it throws, the plugins it had already created are closed.
 * @throws SwitchyardError `CONFIG_INVALID` whose message names the path and the problem
 * @public
 * @category Configuration
 */
export function loadConfig(source: string | object | undefined, options: LoadConfigOptions): LoadedConfig {
  // No document at all (undefined, null, or a text without a document) means llm-d's "no config":
  // every default applies. An explicit document, even `{}`, must declare apiVersion and kind.
  const given = typeof source === 'string' ? parseConfigText(source) : (source as unknown);
  const raw = given === undefined || given === null ? { apiVersion: 'llm-d.ai/v1', kind: 'EndpointPickerConfig' } : given;
  const parsed = endpointPickerConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const e = configError(parsed.error.issues, raw, [], endpointPickerConfigSchema);
    if (parsed.error.issues.some((i) => i.path[0] === 'apiVersion')) {
      throw new SwitchyardError('CONFIG_INVALID', `${e.message} (supported apiVersions: ${CONFIG_API_VERSIONS.join(', ')})`);
    }
    throw e;
  }
  const doc = moveDeprecatedFields(parsed.data);
  const known = new Set<string>([...KNOWN_FEATURE_GATES, ...(options.extraFeatureGates ?? [])]);
  doc.featureGates.forEach((g, i) => {
    if (!known.has(g)) throw invalid(['featureGates', i], `unknown feature gate "${g}" (known: ${[...known].join(', ')})`);
  });

  const clock = options.clock ?? systemClock;
  const deps = { registry: options.registry, pool: options.pool, clock, allowExperimental: options.allowExperimental === true, sharedState: options.sharedState, metrics: options.metrics };
  const { instances, byName } = createInstances(doc.plugins, deps);
  try {
    return assemble(doc, options, clock, instances, byName);
  } catch (error) {
    // Plugins created so far (auto-created ones included) may hold sockets or timers.
    abandonPlugins(instances.map((i) => i.plugin));
    throw error;
  }
}

/** The rest of {@link loadConfig} once the listed plugins exist: defaults, profiles, producers, data layer. */
function assemble(doc: EndpointPickerConfigDocument, options: LoadConfigOptions, clock: Clock, instances: Instance[], byName: Map<string, Instance>): LoadedConfig {
  const context = (name: string): PluginFactoryContext => ({ name, clock, pool: options.pool, lookup: (n) => byName.get(n)?.plugin, sharedState: options.sharedState, metrics: options.metrics });
  const autoCreate = (type: string): Instance => {
    const def = options.registry.get(type);
    if (def === undefined) throw new SwitchyardError('CONFIG_INVALID', `default plugin type "${type}" is not registered`);
    const name = nextName((n) => byName.has(n), type);
    const params = def.parameters.parse({});
    const inst: Instance = { plugin: def.create(params, context(name)), def, params, auto: true };
    instances.push(inst);
    byName.set(name, inst);
    return inst;
  };

  const { profiles, effective: effectiveProfiles } = buildProfiles(doc.schedulingProfiles, instances, byName, options.registry, autoCreate);
  const profileHandler = resolveHandler(instances, profiles, autoCreate);

  // Packs name the plugins a config gets by default (flow control's policies when its gate is on).
  for (const type of options.registry.defaultTypes({ featureGates: doc.featureGates, flowControl: doc.flowControl })) {
    if (!instances.some((i) => i.plugin.type === type)) autoCreate(type);
  }
  // Types listed plugins bring along (llm-d's Registrant), unless the document declares them.
  for (const i of [...instances]) {
    for (const type of i.def?.requires ?? []) if (!instances.some((j) => j.plugin.type === type)) autoCreate(type);
  }
  if (doc.flowControl !== undefined) checkFlowControlRefs(doc.flowControl, (n) => byName.has(n));

  const parsers = resolveParsers(doc.requestHandler?.parsers, byName, options.registry, autoCreate);
  const producers: DataProducer[] = completeProducers(instances, options.registry, context);
  for (const i of instances) if (!byName.has(i.plugin.name)) byName.set(i.plugin.name, i);
  const plugins = new Map<string, Plugin>(instances.map((i) => [i.plugin.name, i.plugin]));
  const dataLayerSettings = resolveDataLayer(doc.dataLayer, plugins);
  const effective = effectiveDocument({
    apiVersion: doc.apiVersion,
    featureGates: doc.featureGates,
    instances,
    profiles: effectiveProfiles,
    dataLayer: doc.dataLayer,
    flowControl: doc.flowControl,
    requestHandler: doc.requestHandler,
    switchyard: doc.switchyard,
  });
  const gates = new Set(doc.featureGates);
  return {
    profiles,
    profileHandler,
    producers,
    plugins,
    apiVersion: doc.apiVersion,
    featureGates: doc.featureGates,
    flowControl: doc.flowControl,
    dataLayer: doc.dataLayer,
    switchyard: doc.switchyard,
    dataLayerSettings,
    requestHandler: doc.requestHandler,
    parsers,
    effective,
    notActedOn: [
      ...instances.flatMap((i) => (i.notActedOn ?? []).map((p) => ({ plugin: i.plugin.name, type: i.plugin.type, ...p }))),
      ...Object.entries(DATA_LAYER_NOT_ACTED_ON).flatMap(([parameter, reason]) =>
        doc.dataLayer?.[parameter] === undefined ? [] : [{ plugin: 'dataLayer', type: 'dataLayer', parameter, reason }],
      ),
    ],
    hasFeatureGate: (gate) => gates.has(gate),
    printEffectiveConfig: () => printYaml(effective),
  };
}

/**
 * llm-d's deprecated top-level `parser` and `saturationDetector` moved where they live now (the
 * new place wins when both are set), as llm-d's loader does.
 */
function moveDeprecatedFields(doc: EndpointPickerConfigDocument): EndpointPickerConfigDocument {
  const { parser, saturationDetector, ...rest } = doc;
  let out: EndpointPickerConfigDocument = rest;
  if (parser !== undefined && (doc.requestHandler?.parsers ?? []).length === 0) {
    out = { ...out, requestHandler: { ...doc.requestHandler, parsers: [parser] } };
  }
  if (saturationDetector !== undefined && doc.flowControl?.['saturationDetector'] === undefined) {
    out = { ...out, flowControl: { ...doc.flowControl, saturationDetector } };
  }
  return out;
}

/** The parsers `requestHandler.parsers` names; a name no plugin has is created from the parser type of that name. */
function resolveParsers(
  refs: readonly { pluginRef: string }[] | undefined,
  byName: ReadonlyMap<string, Instance>,
  registry: PluginRegistry,
  autoCreate: (type: string) => Instance,
): RequestParser[] | undefined {
  if (refs === undefined || refs.length === 0) return undefined;
  return refs.map(({ pluginRef }, i) => {
    const path = ['requestHandler', 'parsers', i, 'pluginRef'];
    let inst = byName.get(pluginRef);
    if (inst === undefined) {
      if (!registry.has(pluginRef)) throw invalid(path, `"${pluginRef}" is neither a plugin of this config nor a registered parser type`);
      inst = autoCreate(pluginRef);
    }
    const plugin = inst.plugin;
    if (!isRequestParser(plugin)) throw invalid(path, `plugin "${pluginRef}" (type ${plugin.type}) is not a request parser`);
    return plugin;
  });
}

function resolveHandler(instances: readonly Instance[], profiles: ReadonlyMap<string, SchedulingProfile>, autoCreate: (type: string) => Instance): ProfileHandler {
  const handlers = instances.filter((i) => isProfileHandler(i.plugin));
  if (handlers.length > 1) {
    throw invalid(['plugins'], `more than one profile handler: ${handlers.map((h) => `"${h.plugin.name}"`).join(', ')} (a config has exactly one)`);
  }
  const chosen = handlers[0];
  if (chosen === undefined) {
    if (profiles.size > 1) throw invalid(['schedulingProfiles'], `${profiles.size} profiles need a profile handler (e.g. disagg-profile-handler); single-profile-handler runs exactly one`);
    return autoCreate(SINGLE_PROFILE_HANDLER).plugin as ProfileHandler;
  }
  const handler = chosen.plugin as ProfileHandler;
  const index = instances.indexOf(chosen);
  if (handler.type === SINGLE_PROFILE_HANDLER && profiles.size > 1) {
    throw invalid(['plugins', index], `single-profile-handler "${handler.name}" cannot run ${profiles.size} profiles`);
  }
  try {
    handler.validate?.(profiles);
  } catch (error) {
    throw invalid(['plugins', index], `profile handler "${handler.name}": ${error instanceof Error ? error.message : String(error)}`);
  }
  return handler;
}
