import { describe, expect, it } from 'vitest';
import { ManualClock } from '@switchyard/core';
import { FakeStore } from '../test-support/fake-api/store.js';
import { defaultResourceTypes } from '../test-support/fake-api/resources.js';
import { LEASES } from '../test-support/objects.js';
import { storeClient, type StoreClient } from '../test-support/store-client.js';
import type { LeaseObject } from '../resources/types.js';
import { LeaseElector, eppLeaseName } from './lease-elector.js';

const NAME = eppLeaseName('llm', 'chat');

/** Lets the elector's pending store requests (promise chains) run. */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

/** One EPP replica: its own clock (so a crashed one can be frozen) and its own client. */
interface Replica {
  readonly clock: ManualClock;
  readonly client: StoreClient;
  readonly elector: LeaseElector;
}

function replica(store: FakeStore, identity: string): Replica {
  const clock = new ManualClock();
  const client = storeClient(store);
  // llm-d's timings: controller-runtime's defaults, 15 s / 10 s / 2 s.
  return { clock, client, elector: new LeaseElector({ client, clock, namespace: 'llm', name: NAME, identity }) };
}

/** Advances the running replicas' clocks together in 100 ms steps, for `ms`; returns the ms at which `until` first held. */
async function run(replicas: readonly Replica[], ms: number, until: () => boolean = () => false): Promise<number | undefined> {
  for (let t = 0; t <= ms; t += 100) {
    if (until()) return t;
    for (const r of replicas) r.clock.advance(100);
    await settle();
  }
  return undefined;
}

const lease = (store: FakeStore): LeaseObject => store.get(LEASES, 'llm', NAME);

describe('LeaseElector (client-go algorithm, llm-d timings, injected clock)', () => {
  it('two candidates starting together: exactly one wins (create conflict), the other stands by', async () => {
    const store = new FakeStore(defaultResourceTypes());
    const a = replica(store, 'a');
    const b = replica(store, 'b');
    a.elector.start();
    b.elector.start();
    await settle();
    await run([a, b], 10_000);
    expect([a.elector.isLeader, b.elector.isLeader].filter(Boolean)).toHaveLength(1);
    const holder = a.elector.isLeader ? 'a' : 'b';
    expect(lease(store).spec).toMatchObject({ holderIdentity: holder, leaseDurationSeconds: 15, leaseTransitions: 0 });
    await a.elector.release();
    await b.elector.release();
  });

  it('a crashed leader is replaced once its lease expires: within lease duration + one retry of the last renewal', async () => {
    const store = new FakeStore(defaultResourceTypes());
    const a = replica(store, 'a');
    const b = replica(store, 'b');
    a.elector.start();
    await settle();
    expect(a.elector.isLeader).toBe(true);
    b.elector.start();
    await run([a, b], 6_000);
    expect(b.elector.isLeader).toBe(false);
    const renewedBefore = lease(store).metadata?.resourceVersion;
    // SIGKILL: a's clock stops, nothing renews. b saw the last renewal at most one retry ago.
    const took = await run([b], 30_000, () => b.elector.isLeader);
    expect(lease(store).metadata?.resourceVersion).not.toBe(renewedBefore);
    expect(took).toBeDefined();
    expect(took).toBeGreaterThan(15_000 - 2_000);
    expect(took).toBeLessThanOrEqual(15_000 + 2_000);
    expect(lease(store).spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('a released lease (SIGTERM) is taken over at the standby\'s next retry, at most 2 s later', async () => {
    const store = new FakeStore(defaultResourceTypes());
    const a = replica(store, 'a');
    const b = replica(store, 'b');
    a.elector.start();
    await settle();
    b.elector.start();
    await run([a, b], 5_000);
    const lost: string[] = [];
    a.elector.on('lost', () => lost.push('a'));
    await a.elector.release();
    expect(lost).toEqual(['a']);
    expect(a.elector.isLeader).toBe(false);
    expect(lease(store).spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    const took = await run([a, b], 5_000, () => b.elector.isLeader);
    expect(took).toBeDefined();
    expect(took).toBeLessThanOrEqual(2_000);
    expect(lease(store).spec).toMatchObject({ holderIdentity: 'b', leaseDurationSeconds: 15, leaseTransitions: 1 });
    // The released replica does not campaign again.
    await run([a, b], 20_000);
    expect(a.elector.isLeader).toBe(false);
    expect(b.elector.isLeader).toBe(true);
  });

  it('a leader that cannot reach the API server steps down after the renew deadline, and nobody leads twice', async () => {
    const store = new FakeStore(defaultResourceTypes());
    const a = replica(store, 'a');
    const b = replica(store, 'b');
    a.elector.start();
    await settle();
    b.elector.start();
    await run([a, b], 4_000);
    a.client.down = true;
    const stepped = await run([a, b], 20_000, () => !a.elector.isLeader);
    expect(stepped).toBeDefined();
    expect(stepped).toBeGreaterThanOrEqual(10_000 - 2_000);
    expect(stepped).toBeLessThanOrEqual(10_000 + 2_000);
    // b still respects the lease a wrote last: no overlap of two leaders.
    expect(b.elector.isLeader).toBe(false);
    await run([a, b], 10_000, () => b.elector.isLeader);
    expect(b.elector.isLeader).toBe(true);
    expect(a.elector.isLeader).toBe(false);
    // a reconnects and sees b holding a valid lease: it stays a standby.
    a.client.down = false;
    await run([a, b], 10_000);
    expect([a.elector.isLeader, b.elector.isLeader]).toEqual([false, true]);
    await a.elector.release();
    await b.elector.release();
  });

  it('a leader whose requests hang steps down at the renew deadline, before its lease can be taken', async () => {
    const store = new FakeStore(defaultResourceTypes());
    const a = replica(store, 'a');
    const b = replica(store, 'b');
    a.elector.start();
    await settle();
    b.elector.start();
    await run([a, b], 4_000);
    expect(a.elector.isLeader).toBe(true);
    a.client.hang = true;
    const stepped = await run([a, b], 20_000, () => !a.elector.isLeader);
    expect(stepped).toBeDefined();
    expect(stepped).toBeLessThanOrEqual(10_000);
    expect(b.elector.isLeader).toBe(false);
    await run([a, b], 10_000, () => b.elector.isLeader);
    expect([a.elector.isLeader, b.elector.isLeader]).toEqual([false, true]);
  });
});
