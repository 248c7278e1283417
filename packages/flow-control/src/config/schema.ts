import { z } from 'zod';
import { durationOrError } from '@switchyard/core';
import { quantityOrError } from '../units/quantity.js';

/** A Kubernetes quantity (`"1k"`, `"10Gi"`, `"500"` or a number) parsed to an integer. */
const quantity = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const n = quantityOrError(value);
  if (typeof n === 'string') {
    ctx.addIssue({ code: 'custom', message: n });
    return z.NEVER;
  }
  return n;
});

/** A Go duration (`"60s"`, `"500ms"`, `"2m"`, or milliseconds) parsed to milliseconds. */
const duration = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = durationOrError(value);
  if (typeof ms === 'string') {
    ctx.addIssue({ code: 'custom', message: ms });
    return z.NEVER;
  }
  return ms;
});

const pluginRef = z.string().min(1, 'must name a plugin');

/** Switchyard-only band settings, kept apart from llm-d's fields. */
const bandExtensions = z.strictObject({
  /** Queue TTL of this band's requests, overriding `defaultRequestTTL` ("0s" disables). */
  requestTTL: duration.optional(),
});

const bandFields = {
  maxBytes: quantity.optional(),
  maxRequests: quantity.optional(),
  fairnessPolicyRef: pluginRef.optional(),
  orderingPolicyRef: pluginRef.optional(),
  switchyard: bandExtensions.optional(),
};

/** A band template (`defaultPriorityBand`, `defaultNegativePriorityBand`); `priority` is ignored. */
const bandTemplate = z.strictObject({ priority: z.number().int().optional(), ...bandFields });

const band = z.strictObject({
  priority: z.number({ error: 'required integer priority' }).int('must be an integer'),
  ...bandFields,
});

/** Switchyard-only controller settings. */
const controllerExtensions = z.strictObject({
  /** Idle time after which an empty flow is forgotten (default 5m). */
  flowGCTimeout: duration.optional(),
  /** Idle time after which an empty, unconfigured band is forgotten (default 10m). */
  bandGCTimeout: duration.optional(),
  /** How long an evicted request may take to release its slot before the revocation counts as timed out (default 30s). */
  evictionReclaimTimeout: duration.optional(),
  /** Upper bound on revocations awaiting reclaim at once (default 2, as llm-d's per-decision cap). */
  maxEvictionsPerCycle: z.number().int().positive().optional(),
  /** Share a full band's room per flow: a newcomer within its share displaces a flow over it (default true). */
  admissionShares: z.boolean().optional(),
});

/**
 * Zod schema of llm-d's `flowControl` block (strict: unknown fields are errors), plus the
 * clearly named `switchyard` extension objects.
 * @public
 * @category Config
 */
export const flowControlSchema = z
  .strictObject({
    maxBytes: quantity.optional(),
    maxRequests: quantity.optional(),
    defaultRequestTTL: duration.optional(),
    noEndpointRequestTTL: duration.optional(),
    defaultPriorityBand: bandTemplate.optional(),
    defaultNegativePriorityBand: bandTemplate.optional(),
    priorityBands: z.array(band).optional(),
    usageLimitPolicyPluginRef: pluginRef.optional(),
    saturationDetector: z.strictObject({ pluginRef: pluginRef.optional() }).optional(),
    enableEviction: z.boolean().optional(),
    switchyard: controllerExtensions.optional(),
  })
  .superRefine((cfg, ctx) => {
    const seen = new Map<number, number>();
    (cfg.priorityBands ?? []).forEach((b, i) => {
      const first = seen.get(b.priority);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['priorityBands', i, 'priority'], message: `duplicate priority ${b.priority} (also priorityBands[${first}])` });
      }
      seen.set(b.priority, i);
    });
  });

/**
 * The `flowControl` block as written (before defaults and plugin resolution).
 * @public
 * @category Config
 */
export type FlowControlInput = z.input<typeof flowControlSchema>;

/** @internal parsed, not yet resolved block */
export type ParsedFlowControl = z.output<typeof flowControlSchema>;

/** @internal parsed band template or band */
export type ParsedBand = z.output<typeof bandTemplate>;
