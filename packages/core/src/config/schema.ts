import { z } from 'zod';
import { switchyardSectionSchema } from '../state/settings.js';

/**
 * apiVersions an `EndpointPickerConfig` may declare. @public
 * @category Configuration
 */
export const CONFIG_API_VERSIONS = ['llm-d.ai/v1alpha1', 'llm-d.ai/v1', 'inference.networking.x-k8s.io/v1alpha1'] as const;

/**
 * Feature gates the loader knows (`prepareDataPlugins` is accepted as a no-op for old configs). @public
 * @category Configuration
 */
export const KNOWN_FEATURE_GATES = ['flowControl', 'dataLayer', 'prepareDataPlugins'] as const;

/**
 * Schema of one `plugins[]` entry. @public
 * @category Configuration
 */
export const pluginSpecSchema = z.strictObject({
  name: z.string().min(1).optional(),
  type: z.string().min(1),
  parameters: z.unknown().optional(),
});

/**
 * Schema of one `schedulingProfiles[].plugins[]` entry. @public
 * @category Configuration
 */
export const profilePluginSchema = z.strictObject({
  pluginRef: z.string().min(1),
  weight: z.number().optional(),
});

/**
 * Schema of one `schedulingProfiles[]` entry. @public
 * @category Configuration
 */
export const profileDocumentSchema = z.strictObject({
  name: z.string().min(1),
  plugins: z.array(profilePluginSchema).default([]),
});

const objectSchema = z.record(z.string(), z.unknown());

/** Schema of a reference to a plugin of the document (`requestHandler.parsers[]`, `parser`). */
const pluginRefSchema = z.strictObject({ pluginRef: z.string().min(1) });

/**
 * Strict schema of an llm-d `EndpointPickerConfig` document. `dataLayer` and `flowControl` are
 * validated as objects here and in depth by their owners. The top-level `parser` and
 * `saturationDetector` are llm-d's deprecated places of `requestHandler.parsers[]` and
 * `flowControl.saturationDetector`; `loadConfig` moves them there.
 * @public
 * @category Configuration
 */
export const endpointPickerConfigSchema = z.strictObject({
  apiVersion: z.enum(CONFIG_API_VERSIONS),
  kind: z.literal('EndpointPickerConfig'),
  featureGates: z.array(z.string().min(1)).default([]),
  plugins: z.array(pluginSpecSchema).default([]),
  schedulingProfiles: z.array(profileDocumentSchema).default([]),
  dataLayer: objectSchema.optional(),
  flowControl: objectSchema.optional(),
  requestHandler: z.strictObject({ parsers: z.array(pluginRefSchema).optional() }).optional(),
  parser: pluginRefSchema.optional(),
  saturationDetector: pluginRefSchema.optional(),
  /** Switchyard's own section (`sharedState`); not an llm-d field. */
  switchyard: switchyardSectionSchema.optional(),
});

/**
 * A validated (not yet defaulted) `EndpointPickerConfig` document. @public
 * @category Configuration
 */
export type EndpointPickerConfigDocument = z.output<typeof endpointPickerConfigSchema>;

/**
 * One `plugins[]` entry. @public
 * @category Configuration
 */
export type PluginSpec = z.output<typeof pluginSpecSchema>;

/**
 * One `schedulingProfiles[]` entry. @public
 * @category Configuration
 */
export type ProfileDocument = z.output<typeof profileDocumentSchema>;
