import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createPickerFromConfig, parseRequest, seededRandom } from '@switchyard/core';
import { SWITCHYARD_PROFILE_YAML, prefixIndexPack, routingProfileConfig } from '@switchyard/prefix-index';
import { metrics } from '@switchyard/core/testing';

function poolOf(n: number): EndpointPool {
  const pool = new EndpointPool();
  for (let i = 0; i < n; i++) {
    pool.add({ id: `e${i}`, address: `10.0.0.${i + 1}:8000` });
    pool.setMetrics(`e${i}`, metrics({ cacheBlockSize: 16, cacheNumBlocks: 100_000 }));
  }
  return pool;
}

const completion = (prompt: string) => parseRequest({ path: '/v1/completions', headers: {}, body: JSON.stringify({ model: 'llama', prompt, max_tokens: 16 }) });

describe('the switchyard profile', () => {
  it('ships profiles/switchyard.yaml identical to the exported constant', () => {
    expect(readFileSync(new URL('../../profiles/switchyard.yaml', import.meta.url), 'utf8')).toBe(SWITCHYARD_PROFILE_YAML);
    expect(routingProfileConfig('switchyard')).toBe(SWITCHYARD_PROFILE_YAML);
    expect(routingProfileConfig('llm-d')).toBeUndefined();
  });

  it('loads with the prefix-index pack, keeps a warm prompt home and spreads cold ones', async () => {
    const pool = poolOf(4);
    const { picker } = createPickerFromConfig({ config: SWITCHYARD_PROFILE_YAML, pool, clock: new ManualClock(), random: seededRandom(3), packs: [prefixIndexPack()] });
    const shared = 'You are a helpful assistant. '.repeat(400);
    const first = await picker.pick(completion(`${shared} question one`), { trace: true });
    first.onResponseStart({ endpoint: first.primary, status: 200, at: 0 });
    first.complete({ kind: 'success' });
    // The prompt's prefix is now on first.primary (routing history): the same prefix goes there again.
    const again = await picker.pick(completion(`${shared} question two`), { trace: true });
    expect(again.primary.id).toBe(first.primary.id);
    const details = again.trace?.profiles[0]?.scorers[0]?.details as Record<string, { uncachedTokens: number; estimateMs: number }>;
    expect(details[first.primary.id]?.uncachedTokens).toBeLessThan(details[pool.list().find((e) => e.id !== first.primary.id)!.id]!.uncachedTokens);
    again.complete({ kind: 'success' });
    // Four distinct cold prompts sent at once (no first byte yet) land on four pods.
    const burst = await Promise.all([0, 1, 2, 3].map((i) => picker.pick(completion(`${String(i).repeat(2000)} cold`))));
    expect(new Set(burst.map((d) => d.primary.id)).size).toBe(4);
    for (const d of burst) d.complete({ kind: 'success' });
    await picker.close();
  });
});
