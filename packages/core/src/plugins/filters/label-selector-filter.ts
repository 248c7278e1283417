import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import type { Filter } from '../../scheduling/plugins.js';

/**
 * Schema of one `matchExpressions` entry (Kubernetes `LabelSelectorRequirement`).
 * @public
 * @category Built-in plugins
 */
export const labelSelectorRequirementSchema = z
  .strictObject({
    /** Label key. */
    key: z.string().min(1),
    /** `In`, `NotIn`, `Exists` or `DoesNotExist`. */
    operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
    /** Values for `In`/`NotIn` (must be empty for the others). */
    values: z.array(z.string()).default([]),
  })
  .superRefine((r, ctx) => {
    const needsValues = r.operator === 'In' || r.operator === 'NotIn';
    if (needsValues && r.values.length === 0) ctx.addIssue({ code: 'custom', path: ['values'], message: `operator ${r.operator} needs at least one value` });
    if (!needsValues && r.values.length > 0) ctx.addIssue({ code: 'custom', path: ['values'], message: `operator ${r.operator} takes no values` });
  });

/**
 * One `matchExpressions` entry of a Kubernetes label selector.
 * @public
 * @category Built-in plugins
 */
export type LabelSelectorRequirement = z.infer<typeof labelSelectorRequirementSchema>;

/**
 * True when `labels` satisfy every `matchLabels` pair and every requirement (Kubernetes
 * `LabelSelector` semantics; an empty selector matches everything).
 * @public
 * @category Built-in plugins
 */
export function matchesLabelSelector(
  labels: Readonly<Record<string, string>>,
  matchLabels: Readonly<Record<string, string>>,
  expressions: readonly LabelSelectorRequirement[],
): boolean {
  for (const [k, v] of Object.entries(matchLabels)) if (labels[k] !== v) return false;
  for (const r of expressions) {
    const v = labels[r.key];
    switch (r.operator) {
      case 'In':
        if (v === undefined || !r.values.includes(v)) return false;
        break;
      case 'NotIn':
        if (v !== undefined && r.values.includes(v)) return false;
        break;
      case 'Exists':
        if (v === undefined) return false;
        break;
      case 'DoesNotExist':
        if (v !== undefined) return false;
        break;
    }
  }
  return true;
}

/**
 * `label-selector-filter`: keeps endpoints whose labels match a Kubernetes label selector
 * (`matchLabels` and `matchExpressions`).
 * @public
 * @category Built-in plugins
 */
export const labelSelectorFilterPlugin = labelSelectorFilterDefinition('label-selector-filter', 'Keeps endpoints matching a Kubernetes label selector.');

/**
 * `by-label-selector`: llm-d's deprecated name of {@link labelSelectorFilterPlugin}, same
 * parameters and behaviour, kept so that older configs load.
 * @public
 * @category Built-in plugins
 */
export const byLabelSelectorFilterPlugin = labelSelectorFilterDefinition('by-label-selector', 'Deprecated llm-d name of label-selector-filter.');

function labelSelectorFilterDefinition(type: string, description: string) {
  return definePlugin({
    type,
    description,
    parameters: z.strictObject({
      /** Exact label values required. */
      matchLabels: z.record(z.string(), z.string()).default({}),
      /** Set-based requirements. */
      matchExpressions: z.array(labelSelectorRequirementSchema).default([]),
    }),
    create: (p, ctx): Filter => ({
      type,
      name: ctx.name,
      filter: (_c, _r, endpoints) => {
        const keep = (e: Endpoint): boolean => matchesLabelSelector(e.labels, p.matchLabels, p.matchExpressions);
        return endpoints.every(keep) ? endpoints : endpoints.filter(keep);
      },
    }),
  });
}
