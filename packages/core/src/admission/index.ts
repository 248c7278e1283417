export type { AdmissionController, AdmissionGrant } from './types.js';
export { createLegacyAdmissionController } from './legacy.js';
export type { LegacyAdmissionOptions } from './legacy.js';
