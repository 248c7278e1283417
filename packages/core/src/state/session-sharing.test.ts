import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/manual-clock.js';
import { seededRandom } from '../clock/seeded-random.js';
import { loadConfig } from '../config/loader.js';
import { EndpointPool } from '../endpoints/pool.js';
import { EndpointPicker } from '../picker/endpoint-picker.js';
import { createDefaultRegistry } from '../registry/default-registry.js';
import { parseRequest } from '../request/index.js';
import { InMemoryStateHub } from './in-memory-hub.js';
import { ReplicaSync } from './replica-sync.js';

const CONFIG = `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: session-affinity-scorer
  parameters:
    strategy: session_id
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: session-affinity-scorer
  - pluginRef: max-score-picker
`;

function replica(clock: ManualClock, hub: InMemoryStateHub, id: string): { picker: EndpointPicker; sync: ReplicaSync } {
  const pool = new EndpointPool();
  for (let i = 0; i < 8; i++) pool.add({ id: `e${i}`, address: `10.0.0.${i + 1}:8000` });
  const sync = new ReplicaSync({ transport: hub.transport(id), replicaId: id, clock });
  sync.attachPool(pool);
  const config = loadConfig(CONFIG, { registry: createDefaultRegistry(), pool, clock, sharedState: sync });
  return { picker: new EndpointPicker({ pool, config, clock, random: seededRandom(id.length + 3) }), sync };
}

const request = (session: string) => parseRequest({ path: '/v1/completions', headers: { 'x-session-id': session }, body: JSON.stringify({ model: 'm', prompt: 'hello' }) });

describe('session bindings shared across replicas', () => {
  it('a session bound on one replica stays on its endpoint when the next request reaches another, until the TTL', async () => {
    const clock = new ManualClock();
    const hub = new InMemoryStateHub();
    const a = replica(clock, hub, 'a');
    const b = replica(clock, hub, 'bb');
    const bound = new Map<string, string>();
    for (let s = 0; s < 20; s++) {
      const d = await a.picker.pick(request(`s${s}`));
      d.complete({ kind: 'success' });
      bound.set(`s${s}`, d.primary.id);
    }
    await a.sync.syncNow();
    await b.sync.syncNow();
    for (const [session, endpoint] of bound) {
      const d = await b.picker.pick(request(session));
      d.complete({ kind: 'success' });
      expect(d.primary.id).toBe(endpoint);
    }
    // Past the TTL (default 300 s) on b's clock the binding is gone and b picks at random again.
    clock.advance(301_000);
    const moved = [];
    for (const session of bound.keys()) {
      const d = await b.picker.pick(request(session));
      d.complete({ kind: 'success' });
      moved.push(d.primary.id !== bound.get(session));
    }
    expect(moved.some(Boolean)).toBe(true);
    await a.picker.close();
    await b.picker.close();
  });
});
