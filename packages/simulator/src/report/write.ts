import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { renderReportHtml } from './html.js';
import type { ComparisonReport } from './types.js';

/**
 * Writes `report.html` at `htmlPath` and `report.json` beside it (same directory), creating the
 * directory when needed. Returns both paths.
 * @public
 * @category Report
 */
export async function writeReport(report: ComparisonReport, htmlPath: string): Promise<{ html: string; json: string }> {
  const dir = dirname(htmlPath);
  await mkdir(dir, { recursive: true });
  const json = join(dir, 'report.json');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(htmlPath, renderReportHtml(report));
  return { html: htmlPath, json };
}
