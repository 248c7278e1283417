import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { Filter } from '../../scheduling/plugins.js';
import { filterByLabel } from './role-filter.js';

/**
 * `by-label`: llm-d's deprecated label filter, kept so that older configs load. Keeps endpoints
 * whose label `label` has one of `validValues`, plus endpoints without the label when
 * `allowsNoLabel`. `label-selector-filter` says the same with `matchExpressions`.
 * @public
 * @category Built-in plugins
 */
export const byLabelFilterPlugin = definePlugin({
  type: 'by-label',
  description: 'Deprecated llm-d filter: keeps endpoints whose label has one of validValues (and unlabeled ones with allowsNoLabel).',
  parameters: z.strictObject({
    /** Label to read. */
    label: z.string().min(1),
    /** Values that keep an endpoint. */
    validValues: z.array(z.string()).default([]),
    /** Keep endpoints that do not carry the label. */
    allowsNoLabel: z.boolean().default(false),
  }),
  create: (p, ctx): Filter => {
    const values = new Set(p.validValues);
    return { type: 'by-label', name: ctx.name, filter: (_c, _r, endpoints) => filterByLabel(endpoints, p.label, values, p.allowsNoLabel) };
  },
});
