export type { RequestRecord, LoadSample, PolicyRun, Percentiles, TenantSummary, PolicySummary, ComparisonReport } from './types.js';
export { percentiles, cdfPoints, jainIndex, downsample } from './stats.js';
export { buildReport } from './build.js';
export type { ReportInput } from './build.js';
export { renderReportHtml } from './html.js';
export { writeReport } from './write.js';
