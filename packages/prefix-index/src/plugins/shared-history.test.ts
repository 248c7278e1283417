import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRegistry, EndpointPicker, EndpointPool, InMemoryStateHub, loadConfig, ManualClock, parseRequest, ReplicaSync, seededRandom } from '@switchyard/core';
import { createPrefixHasher, registerPrefixIndexPlugins, type PrefixHasher } from '@switchyard/prefix-index';
import { decodeHistory, encodeHistory } from './shared-history.js';
import { metrics } from '@switchyard/core/testing';

let hasher: PrefixHasher;
beforeAll(() => {
  hasher = createPrefixHasher();
});

const ENDPOINTS = 4;

function replica(clock: ManualClock, hub: InMemoryStateHub | undefined, id: string): { picker: EndpointPicker; sync: ReplicaSync | undefined } {
  const pool = new EndpointPool();
  for (let i = 0; i < ENDPOINTS; i++) {
    pool.add({ id: `e${i}`, address: `10.0.0.${i + 1}:8000` });
    pool.setMetrics(`e${i}`, metrics({ cacheBlockSize: 16, cacheNumBlocks: 100_000 }));
  }
  const sync = hub === undefined ? undefined : new ReplicaSync({ transport: hub.transport(id), replicaId: id, clock });
  sync?.attachPool(pool);
  const registry = registerPrefixIndexPlugins(createDefaultRegistry(), { hasher });
  const config = loadConfig(undefined, { registry, pool, clock, sharedState: sync });
  return { picker: new EndpointPicker({ pool, config, clock, random: seededRandom(Number(id.slice(1)) + 1) }), sync };
}

/**
 * Plays `conversations` multi-turn chats, each turn arriving at a replica chosen at random, and
 * returns the share of follow-up turns that went to the endpoint of the conversation's previous
 * turn (stickiness). Replicas sync between turns, as they would within one interval.
 */
async function stickiness(replicas: { picker: EndpointPicker; sync: ReplicaSync | undefined }[], seed: number): Promise<number> {
  const random = seededRandom(seed);
  const conversations = 24;
  const turns = 4;
  let sticky = 0;
  let followUps = 0;
  const history: { role: string; content: string }[][] = Array.from({ length: conversations }, (_, c) => [{ role: 'system', content: `conversation ${c}: ${'context '.repeat(400)}` }]);
  const last = new Array<string | undefined>(conversations).fill(undefined);
  for (let t = 0; t < turns; t++) {
    for (let c = 0; c < conversations; c++) {
      const messages = history[c] as { role: string; content: string }[];
      messages.push({ role: 'user', content: `turn ${t} of ${c}: ${'question '.repeat(120)}` });
      const r = replicas[Math.floor(random() * replicas.length)] as (typeof replicas)[number];
      const d = await r.picker.pick(parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'm', messages }) }));
      d.complete({ kind: 'success' });
      if (last[c] !== undefined) {
        followUps++;
        if (last[c] === d.primary.id) sticky++;
      }
      last[c] = d.primary.id;
      messages.push({ role: 'assistant', content: `answer ${t} of ${c}: ${'words '.repeat(120)}` });
      for (const x of replicas) await x.sync?.syncNow();
    }
  }
  return sticky / followUps;
}

describe('routing history shared across replicas', () => {
  it('two and three replicas with shared state are as sticky as one; without it they are not', async () => {
    const clock = new ManualClock();
    const one = await stickiness([replica(clock, undefined, 'r0')], 7);
    expect(one).toBe(1);
    for (const n of [2, 3]) {
      const hub = new InMemoryStateHub();
      const shared = Array.from({ length: n }, (_, i) => replica(clock, hub, `r${i}`));
      expect(await stickiness(shared, 7)).toBe(one);
      const alone = Array.from({ length: n }, (_, i) => replica(clock, undefined, `r${i}`));
      expect(await stickiness(alone, 7)).toBeLessThan(0.8);
      await Promise.all([...shared, ...alone].map((r) => r.picker.close()));
    }
  });

  it('records round-trip, are capped, and malformed ones are rejected', () => {
    const keys = { chains: [[1, 2, 3], [4, 5]], blockSizeTokens: 64, totalBlocks: 5 };
    expect(decodeHistory(JSON.parse(JSON.stringify(encodeHistory('e1', keys))))).toEqual({ endpointId: 'e1', keys });
    expect(encodeHistory('e1', keys, 4).c).toEqual([[1, 2, 3], [4]]);
    for (const bad of [null, 1, { e: '', b: 64, c: [] }, { e: 'x', b: 0, c: [] }, { e: 'x', b: 64, c: [[-1]] }, { e: 'x', b: 64, c: [[2 ** 60]] }, { e: 'x', b: 64, c: 'no' }]) {
      expect(() => decodeHistory(bad)).toThrow(TypeError);
    }
  });
});
