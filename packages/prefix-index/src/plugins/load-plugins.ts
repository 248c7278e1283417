import { prefixBasedPdDeciderPlugin, renamedPluginDefinition, type PluginDefinition, type PluginPack, type PluginRegistry } from '@switchyard/core';
import type { Registry } from 'prom-client';
import { consoleLogger, type PrefixIndexLogger } from '../api/logger.js';
import { PrefixHasher } from '../hashing/prefix-hasher.js';
import { createPrefixIndexMetrics, type PrefixIndexMetrics } from '../metrics/prefix-metrics.js';
import type { ZmqModule } from '../subscriber/zmq-types.js';
import type { Tokenizer } from '../tokenizer/types.js';
import { affinityFilterDefinition } from './affinity-filter.js';
import { approximateProducerDefinition } from './approximate-producer.js';
import { burstProducerDefinition } from './burst-producer.js';
import type { PrefixPluginEnv } from './env.js';
import { noHitLruScorerDefinition } from './no-hit-lru-scorer.js';
import { lmetricScorerDefinition } from './lmetric-scorer.js';
import { preciseProducerDefinition } from './precise-producer.js';
import { preciseScorerDefinition } from './precise-scorer.js';
import { prefixCacheScorerDefinition } from './prefix-cache-scorer.js';
import { legacyTokenizerDefinition, tokenProducerDefinition } from './token-producer.js';

/**
 * Options of {@link loadPrefixIndexPlugins}.
 * @public
 * @category Plugins
 */
export interface PrefixIndexPluginOptions {
  /** Hasher to share (default: a new one). */
  readonly hasher?: PrefixHasher;
  /** Metrics to use (default: created in `registry`). */
  readonly metrics?: PrefixIndexMetrics;
  /** prom-client registry for the default metrics (default: a private one). */
  readonly registry?: Registry;
  /** Logger for first occurrences of problems (default: console). */
  readonly logger?: PrefixIndexLogger;
  /** Tokenizer for `token-producer` with `backend: custom`. */
  readonly tokenizer?: Tokenizer;
  /** zeromq module override (tests); default `import('zeromq')` when a precise producer subscribes. */
  readonly zeromq?: ZmqModule;
}

/**
 * The package as a plugin pack: `token-producer`, `approx-prefix-cache-producer` (and llm-d's
 * `multicluster-approx-prefix-cache-producer` / `multicluster-prefix-cache-scorer` twins),
 * `burst-prefix-cache-producer`, `precise-prefix-cache-producer`, `precise-prefix-cache-scorer`
 * (llm-d's all-in-one legacy), `prefix-cache-scorer`, `no-hit-lru-scorer`, `lmetric-scorer` and
 * `prefix-cache-affinity-filter`, sharing one hasher, metrics and logger. `prefix-based-pd-decider`
 * is core's (it only reads the match info these producers write), so the pack adds nothing
 * `createDefaultRegistry()` already has. With `prefix-cache-scorer` registered, llm-d's default
 * profile includes it (weight 3).
 * @example
 * ```ts
 * const { picker } = createPickerFromConfig({ config: yamlText, pool, packs: [prefixIndexPack({ registry: promRegistry })] });
 * ```
 * @public
 * @category Plugins
 */
export function prefixIndexPack(options: PrefixIndexPluginOptions = {}): PluginPack {
  const logger = options.logger ?? consoleLogger;
  const env: PrefixPluginEnv = {
    hasher: options.hasher ?? new PrefixHasher(),
    metrics: options.metrics ?? createPrefixIndexMetrics({ logger, ...(options.registry === undefined ? {} : { registry: options.registry }) }),
    logger,
    tokenizer: options.tokenizer,
    zeromq: options.zeromq,
  };
  return {
    name: '@switchyard/prefix-index',
    plugins: [
      tokenProducerDefinition(env),
      legacyTokenizerDefinition(env),
      approximateProducerDefinition(env),
      // llm-d's cross-cluster names: same factories, another reported type.
      renamedPluginDefinition(approximateProducerDefinition(env), 'multicluster-approx-prefix-cache-producer', 'approx-prefix-cache-producer for cluster endpoints (multicluster discovery).'),
      burstProducerDefinition(env),
      preciseProducerDefinition(env),
      preciseScorerDefinition(env),
      prefixCacheScorerDefinition(env),
      renamedPluginDefinition(prefixCacheScorerDefinition(env), 'multicluster-prefix-cache-scorer', 'prefix-cache-scorer for cluster endpoints (multicluster discovery).'),
      noHitLruScorerDefinition,
      lmetricScorerDefinition,
      affinityFilterDefinition,
    ],
  };
}

/**
 * The definitions of {@link prefixIndexPack}, ready for `registry.registerAll(...)`.
 * @example
 * ```ts
 * const registry = createDefaultRegistry().registerAll(loadPrefixIndexPlugins({ registry: promRegistry }));
 * ```
 * @public
 * @category Plugins
 */
export function loadPrefixIndexPlugins(options: PrefixIndexPluginOptions = {}): PluginDefinition[] {
  return [...prefixIndexPack(options).plugins];
}

/**
 * Registers the package's plugins ({@link loadPrefixIndexPlugins}) in a core `PluginRegistry`,
 * plus core's `prefix-based-pd-decider` when the registry does not have that type yet (a bare
 * `new PluginRegistry()`), so P/D configs work either way.
 * @example
 * ```ts
 * const registry = registerPrefixIndexPlugins(createDefaultRegistry(), { registry: promRegistry });
 * ```
 * @throws SwitchyardError `CONFIG_INVALID` when another plugin already uses one of the types
 * @public
 * @category Plugins
 */
export function registerPrefixIndexPlugins(registry: PluginRegistry, options: PrefixIndexPluginOptions = {}): PluginRegistry {
  registry.registerAll(loadPrefixIndexPlugins(options));
  if (!registry.has(prefixBasedPdDeciderPlugin.type)) registry.register(prefixBasedPdDeciderPlugin);
  return registry;
}
