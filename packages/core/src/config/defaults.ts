import type { PluginRegistry } from '../registry/plugin-registry.js';

/**
 * Type of the prefix-aware scorer (shipped by `@switchyard/prefix-index`). @public
 * @category Configuration
 */
export const PREFIX_CACHE_SCORER = 'prefix-cache-scorer';

/**
 * llm-d's default scorers and weights, used when a configuration has no profiles and no
 * scorers: `queue-scorer` 2, `kv-cache-utilization-scorer` 2, and `prefix-cache-scorer` 3, the
 * last only when the registry has that type (register `@switchyard/prefix-index`'s plugins).
 * @public
 * @category Configuration
 */
export function defaultScorerWeights(registry: PluginRegistry): readonly { readonly type: string; readonly weight: number }[] {
  const base = [
    { type: 'queue-scorer', weight: 2 },
    { type: 'kv-cache-utilization-scorer', weight: 2 },
  ];
  return registry.has(PREFIX_CACHE_SCORER) ? [...base, { type: PREFIX_CACHE_SCORER, weight: 3 }] : base;
}
