import {
  EndpointPicker,
  createDefaultRegistry,
  createPickerFromConfig,
  createSchedulerConfig,
  isPicker,
  isScorer,
  type AdmissionController,
  type LoadedConfig,
  type Picker,
  type Plugin,
  type PluginPack,
  type PluginRegistry,
  type SchedulerConfig,
  type Scorer,
} from '@switchyard/core';
import { flowControlPack } from '@switchyard/flow-control';
import { SWITCHYARD_PROFILE_YAML, prefixIndexPack, type PreciseKvIndex } from '@switchyard/prefix-index';
import { SwitchyardError } from '@switchyard/core';
import type { SimKvEventBatch } from '../engine/kv-events.js';
import { priorityObjectives } from '../fleet/request.js';
import type { PolicyContext, PolicyFactory, SimPolicy } from '../fleet/types.js';
import { toPrefixIndexBatch } from './kv-bridge.js';
import { ORACLE_PREFIX_SCORER, createOraclePrefixScorer } from './oracle.js';
import { createRoundRobinPicker, roundRobinPickerPlugin } from './round-robin.js';
import { SharedPromptHasher } from './shared-prompt-hasher.js';

/**
 * Names of the built-in policies.
 * @public
 * @category Policies
 */
export const BUILTIN_POLICIES = ['round-robin', 'random', 'least-queue', 'default', 'precise', 'cache-greedy', 'switchyard'] as const;

/**
 * A built-in policy name.
 * @public
 * @category Policies
 */
export type BuiltinPolicyName = (typeof BUILTIN_POLICIES)[number];

const DESCRIPTIONS: Record<BuiltinPolicyName, string> = {
  'round-robin': 'Cycles through endpoints in order, ignoring load and cache (plain load balancer).',
  random: 'Uniformly random endpoint (core random-picker, no scorers).',
  'least-queue': 'Fewest requests in flight from this gateway (active-request-scorer + max-score-picker): join-shortest-queue.',
  default: "llm-d's default EndpointPickerConfig: queue-scorer 2, kv-cache-utilization-scorer 2, prefix-cache-scorer 3 on the approximate (routing-history) prefix index.",
  precise: 'llm-d default weights with the precise prefix index fed by the engines\' KV events (push API, after the configured delay) instead of routing history; speculative indexing covers the gap between a pick and the engine\'s BlockStored (until confirmed, at most 30 s).',
  switchyard: 'The switchyard profile (@switchyard/prefix-index SWITCHYARD_PROFILE_YAML): lowest estimated TTFT per pod from uncached prefill (approximate index), queued prefill, decode load and KV pressure; random ties.',
  'cache-greedy': 'Not a bound (the report\'s bounds are): cache first on the engines\' true state: exact cached (or already queued) prefix weighted 10; ties broken by the same scraped queue and KV-usage scorers as the llm-d default (1 each), so it differs from the default only in what it knows about caches.',
};

/**
 * A plugin registry with everything a simulated policy may name: core built-ins,
 * `@switchyard/prefix-index` plugins, `@switchyard/flow-control` policies and the simulator's
 * `round-robin-picker`.
 * @public
 * @category Policies
 */
export function createSimulatorRegistry(): Promise<PluginRegistry> {
  const registry = createDefaultRegistry();
  for (const pack of simulatorPacks()) registry.registerPack(pack);
  return Promise.resolve(registry);
}

/** One hasher for every simulated gateway: it memoises the shared prompts' keys across requests and replicas. */
const sharedPromptHasher = new SharedPromptHasher();

/** The packs of {@link createSimulatorRegistry}. */
function simulatorPacks(): PluginPack[] {
  return [prefixIndexPack({ hasher: sharedPromptHasher }), flowControlPack, { name: '@switchyard/simulator', plugins: [roundRobinPickerPlugin] }];
}

/** The precise indexes of a config's plugins (producers expose theirs as `index`). */
function preciseIndexes(plugins: ReadonlyMap<string, Plugin>): PreciseKvIndex[] {
  const out: PreciseKvIndex[] = [];
  for (const p of plugins.values()) {
    const index = (p as { index?: Partial<PreciseKvIndex> }).index;
    if (index?.kind === 'precise' && typeof index.ingest === 'function') out.push(index as PreciseKvIndex);
  }
  return out;
}

/**
 * Wraps a loaded config (or programmatic scheduler config) into a policy: a real
 * `EndpointPicker` with flow control when the config enables it, and KV events pushed into every
 * precise index the config holds.
 * @public
 * @category Policies
 */
export function pickerPolicy(name: string, description: string, ctx: PolicyContext, config: SchedulerConfig | LoadedConfig): SimPolicy {
  const loaded = config as Partial<LoadedConfig>;
  // The flow-control pack's own factory, as createPickerFromConfig would call it.
  const admission: AdmissionController | undefined =
    loaded.featureGates === undefined ? undefined : flowControlPack.admission?.({ pool: ctx.pool, clock: ctx.clock, config: { featureGates: loaded.featureGates, flowControl: loaded.flowControl, plugins: config.plugins }, poolName: undefined, metrics: false });
  const picker = new EndpointPicker({ pool: ctx.pool, clock: ctx.clock, random: ctx.random, config, objectives: priorityObjectives, ...(admission === undefined ? {} : { admission }) });
  return policyOf(name, description, picker, config);
}

/** A policy from an EndpointPickerConfig document, assembled by core's `createPickerFromConfig` with the simulator's packs. */
function documentPolicy(name: string, description: string, ctx: PolicyContext, document: string | object): SimPolicy {
  const { picker, config } = createPickerFromConfig({ config: document, pool: ctx.pool, clock: ctx.clock, random: ctx.random, objectives: priorityObjectives, packs: simulatorPacks(), sharedState: ctx.sharedState });
  return policyOf(name, description, picker, config);
}

/** A running picker as a simulated policy: KV events go to every precise index the config holds. */
function policyOf(name: string, description: string, picker: EndpointPicker, config: SchedulerConfig): SimPolicy {
  const indexes = preciseIndexes(config.plugins);
  const closers = [...config.plugins.values()].filter((p): p is Plugin & { close(): unknown } => typeof (p as { close?: unknown }).close === 'function');
  return {
    name,
    description,
    scheduler: picker,
    onKvEvents:
      indexes.length === 0
        ? undefined
        : (endpointId: string, batch: SimKvEventBatch) => {
            const converted = toPrefixIndexBatch(batch);
            for (const index of indexes) index.ingest(endpointId, converted);
          },
    close: async () => {
      await picker.close();
      for (const p of closers) await p.close();
    },
  };
}

const preciseConfig = (modelName: string): object => ({
  apiVersion: 'llm-d.ai/v1',
  kind: 'EndpointPickerConfig',
  plugins: [
    // Without speculative indexing the precise index is blind from the pick until the engine has
    // scheduled the request and its BlockStored has arrived: a second request for a cold prefix
    // in that window looks cold and lands elsewhere, duplicating the prefix. The approximate index
    // learns at pick time, so it never has that gap. The engine's BlockStored ends a speculation,
    // so the TTL only bounds unconfirmed ones; it must outlast engine queueing (waits reach ~20 s
    // in overload), which llm-d's 2 s default does not.
    { type: 'precise-prefix-cache-producer', parameters: { subscribe: false, modelName, speculativeIndexing: true, speculativeTtl: '30s' } },
    { type: 'prefix-cache-scorer' },
    { type: 'queue-scorer' },
    { type: 'kv-cache-utilization-scorer' },
  ],
  schedulingProfiles: [
    {
      name: 'default',
      plugins: [
        { pluginRef: 'prefix-cache-scorer', weight: 3 },
        { pluginRef: 'queue-scorer', weight: 2 },
        { pluginRef: 'kv-cache-utilization-scorer', weight: 2 },
      ],
    },
  ],
});

/**
 * Builds one of the {@link BUILTIN_POLICIES}.
 * @throws SwitchyardError `CONFIG_INVALID` for an unknown name
 * @public
 * @category Policies
 */
export function builtinPolicy(name: string): PolicyFactory {
  if (name === 'oracle') {
    throw new SwitchyardError('CONFIG_INVALID', 'policies: "oracle" was renamed "cache-greedy": it herds onto warm pods and is no upper bound; the report\'s unlimited-cache and capacity-aware bounds are the references');
  }
  if (!(BUILTIN_POLICIES as readonly string[]).includes(name)) {
    throw new SwitchyardError('CONFIG_INVALID', `policies: unknown policy "${name}" (built-ins: ${BUILTIN_POLICIES.join(', ')}, or a config file path)`);
  }
  const n = name as BuiltinPolicyName;
  return async (ctx) => {
    const registry = await createSimulatorRegistry();
    const opts = { registry, pool: ctx.pool, clock: ctx.clock };
    const plugin = (type: string): Plugin => {
      const d = registry.get(type);
      const p = d?.create(d.parameters.parse({}), { name: type, clock: ctx.clock, pool: ctx.pool, lookup: () => undefined });
      if (p === undefined) throw new SwitchyardError('CONFIG_INVALID', `policy ${n}: "${type}" is not a registered plugin`);
      return p;
    };
    const picker = (type: string): Picker => {
      const p = plugin(type);
      if (!isPicker(p)) throw new SwitchyardError('CONFIG_INVALID', `policy ${n}: "${type}" is not a picker`);
      return p;
    };
    const scorer = (type: string): Scorer => {
      const p = plugin(type);
      if (!isScorer(p)) throw new SwitchyardError('CONFIG_INVALID', `policy ${n}: "${type}" is not a scorer`);
      return p;
    };
    switch (n) {
      case 'round-robin':
        return pickerPolicy(n, DESCRIPTIONS[n], ctx, createSchedulerConfig({ ...opts, profiles: [{ picker: createRoundRobinPicker() }] }));
      case 'random':
        return pickerPolicy(n, DESCRIPTIONS[n], ctx, createSchedulerConfig({ ...opts, profiles: [{ picker: picker('random-picker') }] }));
      case 'least-queue':
        return documentPolicy(n, DESCRIPTIONS[n], ctx, {
          apiVersion: 'llm-d.ai/v1',
          kind: 'EndpointPickerConfig',
          plugins: [{ type: 'active-request-scorer' }],
          schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'active-request-scorer', weight: 1 }] }],
        });
      case 'default':
        return documentPolicy(n, DESCRIPTIONS[n], ctx, { apiVersion: 'llm-d.ai/v1', kind: 'EndpointPickerConfig' });
      case 'precise':
        return documentPolicy(n, DESCRIPTIONS[n], ctx, preciseConfig(ctx.modelName));
      case 'switchyard':
        return documentPolicy(n, DESCRIPTIONS[n], ctx, SWITCHYARD_PROFILE_YAML);
      case 'cache-greedy':
        return pickerPolicy(n, DESCRIPTIONS[n], ctx, createSchedulerConfig({
          ...opts,
          profiles: [{
            scorers: [
              // Cache first; load only among equal caches. The load scorers read the same scraped
              // metrics as the real policies: with live load it would place cold prefixes
              // differently, which reshuffles LRU evictions (a cliff: a pod just over its working
              // set loses every reuse) and moves the hit rate by ±1 point for reasons that have
              // nothing to do with knowing the caches.
              { scorer: createOraclePrefixScorer(ctx.fleet, ctx.modelName, ORACLE_PREFIX_SCORER), weight: 10 },
              { scorer: scorer('queue-scorer'), weight: 1 },
              { scorer: scorer('kv-cache-utilization-scorer'), weight: 1 },
            ],
          }],
        }));
    }
  };
}

/**
 * A policy from an llm-d `EndpointPickerConfig` document (YAML or JSON text): loaded with the
 * simulator registry; flow control runs when the document enables the `flowControl` gate.
 * @public
 * @category Policies
 */
export function configPolicy(name: string, text: string): PolicyFactory {
  return (ctx) => Promise.resolve(documentPolicy(name, `EndpointPickerConfig from ${name}`, ctx, text));
}
