import { renamedPluginDefinition } from '../../registry/renamed-plugin.js';
import { sessionAffinityFilterPlugin } from './session-affinity-filter.js';

/**
 * `multicluster-session-affinity-filter` (llm-d, alpha): `session-affinity-filter` under its
 * cross-cluster name, same parameters and behaviour (the pinned endpoint is a cluster endpoint
 * from multicluster discovery).
 * @public
 * @category Built-in plugins
 */
export const multiclusterSessionAffinityFilterPlugin = renamedPluginDefinition(
  sessionAffinityFilterPlugin,
  'multicluster-session-affinity-filter',
  'session-affinity-filter for cluster endpoints (multicluster discovery).',
);
