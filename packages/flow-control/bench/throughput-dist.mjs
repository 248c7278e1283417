/*
 * Flow-control throughput against the built packages (no test-runner module wrapper), unsaturated:
 * admit + grant + release, 1,000 flows x 3 bands, batches of 1,000, best of 7 rounds of 200k,
 * as requests per second of this process's CPU time.
 * Build first (`npm run build -w packages/core -w packages/flow-control`), then from the repository root:
 *   node packages/flow-control/bench/throughput-dist.mjs
 */
import { AttributeMap, EndpointPool, createConcurrencyDetector } from '@switchyard/core';
import { createFlowController, createRoundRobinFairness } from '@switchyard/flow-control';
const reqs = Array.from({ length: 3000 }, (_, i) => ({ request: { id: `b${i}`, byteSize: 1024, maxOutputTokens: 128 }, id: `b${i}`, targetModel: 'm', fairnessId: `t${i % 1000}`, objective: undefined, priority: [100, 0, -10][i % 3], sloTtftMs: undefined, sloTpotMs: undefined, receivedAt: 0, subsetHint: undefined, attributes: new AttributeMap() }));
for (const metrics of [false, {}]) {
  const p = new EndpointPool(); for (let i = 0; i < 8; i++) p.add({ address: `10.5.0.${i + 1}:8000` });
  const ctl = createFlowController({ pool: p, detector: createConcurrencyDetector({ maxConcurrency: 1e6 }), metrics, plugins: new Map([['rr', createRoundRobinFairness('rr')]]), config: { defaultPriorityBand: { fairnessPolicyRef: 'rr' } } });
  let best = Infinity;
  for (let r = 0; r < 7; r++) {
    const c0 = process.cpuUsage();
    for (let b = 0; b < 200; b++) { const pend = []; for (let i = 0; i < 1000; i++) pend.push(ctl.admit(reqs[(b * 1000 + i) % 3000])); for (const g of await Promise.all(pend)) g.release({ kind: 'success' }); }
    const c = process.cpuUsage(c0); best = Math.min(best, (c.user + c.system) / 1e6);
  }
  console.log('dist unsaturated metrics', metrics !== false, Math.round(200000 / best), 'req/s per CPU-second');
}
