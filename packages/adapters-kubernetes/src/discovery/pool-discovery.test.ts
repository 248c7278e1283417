import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@switchyard/core/testing';
import { EndpointPool, type EndpointMetrics } from '@switchyard/core';
import { createKubeClient, EndpointJoiner, KubernetesMetrics, PoolDiscovery, type EndpointProbe, type PoolSource } from '../index.js';
import { startFakeApiServer, writeKubeconfig, type FakeApiServer } from '../test-support/fake-api/index.js';
import { PODS, POOLS, podObject, poolObject, setReady } from '../test-support/objects.js';

const metrics: EndpointMetrics = { waitingQueueSize: 0, runningRequestsSize: 0, kvCacheUsagePercent: 0, activeModels: [], waitingModels: [], maxActiveModels: 0, cacheBlockSize: 16, cacheNumBlocks: 100, updatedAt: 0 };

/** The core test kit's `waitFor`: re-checked every event-loop turn, no fixed sleeps. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  await waitFor(check, { what });
}

describe('PoolDiscovery against the fake API server with client-node informers', () => {
  let api: FakeApiServer;
  let pool: EndpointPool;
  let discovery: PoolDiscovery | undefined;
  let up: Set<string>;
  const probe: EndpointProbe = (spec) => (up.has(spec.address) ? Promise.resolve(metrics) : Promise.reject(new Error('down')));
  const ids = (): string[] => pool.list().map((e) => e.id).sort();

  beforeEach(async () => {
    api = await startFakeApiServer();
    pool = new EndpointPool();
    up = new Set(['127.0.0.2:8000', '127.0.0.2:8001', '127.0.0.3:8000', '127.0.0.3:8001', '127.0.0.4:8000']);
  });
  afterEach(async () => {
    await discovery?.stop();
    await api.close();
  });

  const start = async (source: PoolSource, m = new KubernetesMetrics()): Promise<PoolDiscovery> => {
    const kube = await writeKubeconfig(api.url);
    const client = await createKubeClient({ kubeconfig: kube.path });
    discovery = new PoolDiscovery({ client, namespace: 'default', source, joiner: new EndpointJoiner({ pool, probe, retryMs: 20 }), metrics: m, initialBackoffMs: 20 });
    await discovery.start();
    return discovery;
  };

  it('turns ready, matching pods into ranked endpoints and follows scaling, readiness, labels and ports', async () => {
    api.store.create(POOLS, 'default', poolObject('chat', { app: 'vllm' }, [8000, 8001]));
    api.store.create(PODS, 'default', podObject('vllm-a', '127.0.0.2', { labels: { app: 'vllm', 'llm-d.ai/role': 'decode' } }));
    api.store.create(PODS, 'default', podObject('web', '127.0.0.9', { labels: { app: 'web' } }));
    await start({ kind: 'inference-pool', name: 'chat' });
    await until(() => pool.size === 2, 'two ranks of vllm-a');
    expect(ids()).toEqual(['default/vllm-a-rank-0', 'default/vllm-a-rank-1']);
    expect(pool.get('default/vllm-a-rank-1')).toMatchObject({ address: '127.0.0.2:8001', labels: { 'llm-d.ai/role': 'decode' } });
    expect(pool.get('default/vllm-a-rank-0')?.metrics).toEqual(metrics);

    // Scale up: a pod that is not ready yet does not join; once ready it does.
    api.store.create(PODS, 'default', podObject('vllm-b', '127.0.0.3', { ready: false }));
    await new Promise((r) => setTimeout(r, 50));
    expect(pool.size).toBe(2);
    setReady(api.store, 'default', 'vllm-b', true);
    await until(() => pool.size === 4, 'vllm-b joins');

    // Readiness flips off: both ranks leave at once.
    setReady(api.store, 'default', 'vllm-a', false);
    await until(() => pool.size === 2, 'vllm-a leaves');
    expect(ids()).toEqual(['default/vllm-b-rank-0', 'default/vllm-b-rank-1']);

    // The active-ports annotation narrows the ranks.
    api.store.patch(PODS, 'default', 'vllm-b', { metadata: { annotations: { 'llm-d.ai/active-ports': '8001' } } });
    await until(() => pool.size === 1, 'vllm-b rank 0 inactive');
    expect(ids()).toEqual(['default/vllm-b-rank-1']);

    // A label change takes the pod out of the selector.
    api.store.patch(PODS, 'default', 'vllm-b', { metadata: { labels: { app: 'other' } } });
    await until(() => pool.size === 0, 'vllm-b leaves the selector');

    // A selector change in the pool relists and picks the other pods.
    api.store.patch(POOLS, 'default', 'chat', { spec: { selector: { matchLabels: { app: 'web' } }, targetPorts: [{ number: 8000 }] } });
    up.add('127.0.0.9:8000');
    await until(() => ids().join() === 'default/web-rank-0', 'web joins after the selector change');

    // Scale down: deleting the pod removes its endpoint.
    api.store.delete(PODS, 'default', 'web');
    await until(() => pool.size === 0, 'web deleted');

    // The pool's deletion empties the pool.
    api.store.patch(POOLS, 'default', 'chat', { spec: { selector: { matchLabels: { app: 'vllm' } } } });
    setReady(api.store, 'default', 'vllm-a', true);
    await until(() => ids().join() === 'default/vllm-a-rank-0', 'vllm-a back on the one remaining port');
    api.store.delete(POOLS, 'default', 'chat');
    await until(() => pool.size === 0, 'pool deleted');
    expect(discovery?.spec).toBeUndefined();
  });

  it('joins an endpoint only once its first scrape succeeds', async () => {
    up.delete('127.0.0.4:8000');
    api.store.create(PODS, 'default', podObject('slow', '127.0.0.4', { labels: { role: 'x' } }));
    await start({ kind: 'selector', spec: { namespace: 'default', name: 'epp', selector: { requirements: [{ op: 'exists', key: 'role' }] }, targetPorts: [8000] } });
    await new Promise((r) => setTimeout(r, 80));
    expect(pool.size).toBe(0);
    up.add('127.0.0.4:8000');
    await until(() => pool.size === 1, 'slow joins once it answers');
  });

  it('relists after a 410, and restarts a failed informer with backoff keeping known endpoints', async () => {
    const m = new KubernetesMetrics();
    api.store.create(PODS, 'default', podObject('vllm-a', '127.0.0.2'));
    await start({ kind: 'selector', spec: { namespace: 'default', name: 'epp', selector: { requirements: [{ op: '=', key: 'app', value: 'vllm' }] }, targetPorts: [8000] } }, m);
    await until(() => pool.size === 1, 'vllm-a');
    const relists = async (): Promise<number> => (await m.relists.get()).values.find((v) => v.labels.resource === 'pods')?.value ?? 0;
    const before = await relists();

    // Compaction, then a change while the watch is down: the reconnect from the old
    // resourceVersion gets 410, and the relist brings the missed pod.
    api.store.compact();
    api.store.create(PODS, 'default', podObject('vllm-b', '127.0.0.3'));
    api.store.compact();
    api.endWatches();
    await until(() => pool.size === 2, 'vllm-b after the 410 relist');
    expect(await relists()).toBeGreaterThan(before);

    // The API server goes away: the informer fails, the endpoints stay, and it comes back.
    const restart = api.restart(300);
    await new Promise((r) => setTimeout(r, 100));
    expect(ids()).toEqual(['default/vllm-a-rank-0', 'default/vllm-b-rank-0']);
    await restart;
    api.store.delete(PODS, 'default', 'vllm-a');
    await until(() => pool.size === 1, 'vllm-a deleted after the restart');
    expect((await m.watchRestarts.get()).values.find((v) => v.labels.resource === 'pods')?.value ?? 0).toBeGreaterThan(0);
  });
});
