import { z } from 'zod';

/** API versions under which InferenceObjective and InferenceModelRewrite are accepted. */
export const RESOURCE_API_VERSIONS = ['llm-d.ai/v1', 'llm-d.ai/v1alpha2', 'inference.networking.x-k8s.io/v1alpha2'] as const;

const poolRef = z.strictObject({
  name: z.string().min(1),
  group: z.string().optional(),
  kind: z.string().optional(),
});

/** `metadata`: only name, namespace and creationTimestamp matter; labels etc. are allowed and ignored. */
export const metadataSchema = z.looseObject({
  name: z.string().min(1),
  namespace: z.string().optional(),
  creationTimestamp: z
    .union([z.string(), z.date()])
    .optional()
    .refine((v) => v === undefined || !Number.isNaN(new Date(v).getTime()), 'expected an RFC 3339 timestamp'),
});

/** InferenceObjective `spec` (v1 `poolRefs`/`poolSelector`, v1alpha2 `poolRef`). Unknown keys are errors, to catch typos. */
export const objectiveSpecSchema = z.strictObject({
  priority: z.int32().nullish(),
  poolRefs: z.array(poolRef).min(1).max(16).optional(),
  poolRef: poolRef.optional(),
  poolSelector: z.looseObject({}).optional(),
});

const modelMatch = z.strictObject({
  model: z.strictObject({
    type: z.literal('Exact').optional(),
    value: z.string().min(1),
  }),
});

const target = z.strictObject({
  modelRewrite: z.string().min(1),
  weight: z.int().min(1).max(1_000_000).optional(),
});

/** InferenceModelRewrite `spec`. Unknown keys are errors, to catch typos. */
export const modelRewriteSpecSchema = z.strictObject({
  poolRef: poolRef.optional(),
  rules: z.array(
    z.strictObject({
      matches: z.array(modelMatch).optional(),
      targets: z.array(target).min(1).optional(),
    }),
  ),
});

/** The envelope every resource shares. */
export const envelopeSchema = z.looseObject({
  apiVersion: z.enum(RESOURCE_API_VERSIONS),
  kind: z.string().min(1),
  metadata: metadataSchema,
  spec: z.unknown().optional(),
  status: z.unknown().optional(),
});

/**
 * Formats zod issues as `<where>.<path>: <message>` lines, joined with `; `.
 */
export function formatIssues(where: string, issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      let path = where;
      for (const seg of issue.path) path += typeof seg === 'number' ? `[${seg}]` : `.${String(seg)}`;
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}
