import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDemo } from './demo.js';

describe('the demo (shortened)', () => {
  it('compares the switchyard profile and the llm-d default config with round-robin on a live simulated fleet and writes the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-demo-'));
    const progress: string[] = [];
    const result = await runDemo({ pods: 2, timeScale: 20, conversations: 6, turns: [4, 5], reportPath: join(dir, 'report.html'), log: (t) => progress.push(t) });
    expect(result.rows.map((r) => r.policy)).toEqual(['switchyard', 'llm-d default', 'round-robin']);
    for (const row of result.rows) {
      expect(row.errors).toBe(0);
      expect(row.completed).toBe(result.report.workload.requests);
      expect(row.ttftP50).toBeGreaterThan(0);
      expect(row.prefixHitRate).toBeGreaterThan(0);
    }
    // Conversations stay on the pod that holds their history; round-robin spreads them.
    const [sy, llmd, rr] = result.rows;
    expect(sy?.prefixHitRate).toBeGreaterThan(rr?.prefixHitRate ?? 1);
    expect(llmd?.prefixHitRate).toBeGreaterThan(rr?.prefixHitRate ?? 1);
    expect(result.table).toMatch(/prefix cache hit rate \(engines\)/);
    expect(progress.join('')).toMatch(/\[round-robin\] \d+\/\d+ requests/);
    // Not a terminal (liveProgress off): whole lines a log file can hold, none redrawn with \r.
    expect(progress.filter((t) => t.includes('requests')).every((t) => t.endsWith('\n') && !t.includes('\r'))).toBe(true);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('round-robin');
  });
});
