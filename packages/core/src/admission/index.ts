export type { AdmissionController, AdmissionGrant } from './types.js';
