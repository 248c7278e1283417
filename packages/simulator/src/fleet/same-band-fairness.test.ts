/*
 * Same-band fairness of flow-control admission, measured with Jain's index in virtual time: a
 * flooding tenant and a light one share priority band 0 in front of a small fleet. Prints the
 * table recorded in docs/flow-control.md; asserts what must hold.
 *   npx vitest run packages/simulator/src/fleet/same-band-fairness.test.ts
 */
import { describe, expect, it } from 'vitest';
import { configPolicy, jainIndex, multiTenantWorkload, runVirtualFleet, type RequestRecord } from '@switchyard/simulator';

const workload = multiTenantWorkload({
  tenants: [
    { name: 'flooder', rate: 200, priority: 0, systemPromptLen: 512, questionLen: 256, outputLen: 128 },
    { name: 'light', rate: 4, priority: 0, systemPromptLen: 512, questionLen: 256, outputLen: 128 },
  ],
  durationMs: 20_000,
  seed: 7,
});

const config = (shares: boolean): string => `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
featureGates: [flowControl]
flowControl:
  priorityBands: [{ priority: 0, maxRequests: 24 }]
  switchyard: { admissionShares: ${String(shares)} }
`;

/** Max-min fair split of `total` served requests among demands (water filling). */
function maxMinShares(demands: readonly number[], total: number): number[] {
  const out = demands.map(() => 0);
  let left = total;
  let open = demands.map((_, i) => i);
  while (left > 1e-9 && open.length > 0) {
    const each = left / open.length;
    const next: number[] = [];
    for (const i of open) {
      const take = Math.min(each, (demands[i] as number) - (out[i] as number));
      out[i] = (out[i] as number) + take;
      left -= take;
      if ((out[i]) < (demands[i] as number) - 1e-9) next.push(i);
    }
    if (next.length === open.length) break;
    open = next;
  }
  return out;
}

interface TenantResult {
  readonly offered: number;
  readonly served: number;
  readonly rejected: number;
}

function byTenant(records: readonly RequestRecord[]): Map<string, TenantResult> {
  const out = new Map<string, TenantResult>();
  for (const r of records) {
    const t = out.get(r.tenant) ?? { offered: 0, served: 0, rejected: 0 };
    out.set(r.tenant, { offered: t.offered + 1, served: t.served + (r.status === 'ok' ? 1 : 0), rejected: t.rejected + (r.status === 'rejected' ? 1 : 0) });
  }
  return out;
}

async function measure(shares: boolean): Promise<{ tenants: Map<string, TenantResult>; jain: number }> {
  const run = await runVirtualFleet(workload, configPolicy(shares ? 'shares' : 'llm-d', config(shares)), { pods: 1, seed: 7 });
  const tenants = byTenant(run.records);
  const rows = [...tenants.values()];
  const fair = maxMinShares(rows.map((t) => t.offered), rows.reduce((s, t) => s + t.served, 0));
  // Jain's index of each tenant's throughput normalised by its max-min fair share (1 = fair).
  return { tenants, jain: jainIndex(rows.map((t, i) => t.served / (fair[i] as number))) };
}

describe('same-band admission fairness (virtual fleet)', () => {
  it('refuses the flooder rather than the light tenant when their band is full', async () => {
    const before = await measure(false);
    const after = await measure(true);
    const line = (name: string, m: { tenants: Map<string, TenantResult>; jain: number }): string =>
      `${name.padEnd(16)} ${[...m.tenants.entries()].map(([t, r]) => `${t} ${r.served}/${r.offered} served, ${r.rejected} rejected`).join('; ')}; Jain ${m.jain.toFixed(3)}`;
    console.log(`${line('llm-d admission', before)}\n${line('per-flow shares', after)}`);
    const rejectedShare = (m: { tenants: Map<string, TenantResult> }, t: string): number => {
      const r = m.tenants.get(t) as TenantResult;
      return r.rejected / r.offered;
    };
    // Before: the light tenant is refused about as often as the flooder (queue-full is first come).
    expect(rejectedShare(before, 'light')).toBeGreaterThan(0.5);
    // After: it loses only what exceeds its half of the queue during the fleet's stalls.
    expect(rejectedShare(after, 'light')).toBeLessThan(rejectedShare(before, 'light') / 1.5);
    expect(rejectedShare(after, 'light')).toBeLessThan(rejectedShare(after, 'flooder') / 1.5);
    expect(after.jain).toBeGreaterThan(before.jain + 0.1);
  }, 120_000);
});
