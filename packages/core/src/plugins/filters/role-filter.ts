import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { ROLE_LABEL } from '../../endpoints/types.js';
import { definePlugin, type PluginDefinition } from '../../registry/types.js';
import type { Filter } from '../../scheduling/plugins.js';

/**
 * Keeps the endpoints whose `llm-d.ai/role` label is in `roles` (and unlabeled ones when
 * `keepUnlabeled`).
 * @internal
 */
export function filterByRole(endpoints: readonly Endpoint[], roles: ReadonlySet<string>, keepUnlabeled: boolean): readonly Endpoint[] {
  return filterByLabel(endpoints, ROLE_LABEL, roles, keepUnlabeled);
}

/**
 * Keeps the endpoints whose label `label` has one of `values`, and those without the label when
 * `keepUnlabeled` (or when `values` holds the empty string, llm-d's reading of a missing label).
 * Returns the input array itself when nothing is removed, so the common all-pass case allocates
 * nothing.
 * @internal
 */
export function filterByLabel(endpoints: readonly Endpoint[], label: string, values: ReadonlySet<string>, keepUnlabeled: boolean): readonly Endpoint[] {
  const keep = (e: Endpoint): boolean => {
    const value = e.labels[label];
    return value === undefined ? keepUnlabeled || values.has('') : values.has(value);
  };
  let i = 0;
  while (i < endpoints.length && keep(endpoints[i] as Endpoint)) i++;
  if (i === endpoints.length) return endpoints;
  const out = endpoints.slice(0, i);
  for (i++; i < endpoints.length; i++) {
    const e = endpoints[i] as Endpoint;
    if (keep(e)) out.push(e);
  }
  return out;
}

/**
 * Builds the definition of a role filter (`decode-filter`, `prefill-filter`, `encode-filter`).
 * @internal
 */
export function roleFilterDefinition(type: string, roles: readonly string[], keepUnlabeled: boolean, description: string): PluginDefinition<Record<string, never>> {
  const set = new Set(roles);
  return definePlugin({
    type,
    description,
    parameters: z.strictObject({}),
    create: (_p, ctx): Filter => ({
      type,
      name: ctx.name,
      filter: (_c, _r, endpoints) => filterByRole(endpoints, set, keepUnlabeled),
    }),
  });
}
