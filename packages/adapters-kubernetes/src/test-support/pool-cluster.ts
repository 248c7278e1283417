import { rm } from 'node:fs/promises';
import { startFakeApiServer, writeKubeconfig, type FakeApiServer } from './fake-api/index.js';
import { startLoopbackFleet, type LoopbackFleet } from './loopback-fleet.js';
import { PODS, POOLS, podObject, poolObject } from './objects.js';

/**
 * What the end-to-end tests start from: simulated pods on loopback IPs, a fake API server holding
 * InferencePool `default/chat` (selector `app=vllm`) and the first pods, and a kubeconfig for it.
 */
export interface PoolCluster {
  readonly fleet: LoopbackFleet;
  readonly api: FakeApiServer;
  /** The kubeconfig file (and its directory, kubectl's HOME). */
  readonly kube: { readonly path: string; readonly dir: string };
  /** The discovery flags both CLIs take to follow the pool. */
  readonly flags: readonly string[];
  close(): Promise<void>;
}

/**
 * Starts a model server on every IP (pods `vllm-0`, `vllm-1`, … serving `m` and `adapters`) and
 * creates the pool and the pods of the first `running` IPs; the others are there to scale up to.
 */
export async function startPoolCluster(ips: readonly string[], options: { readonly running?: number; readonly adapters?: readonly string[] } = {}): Promise<PoolCluster> {
  const fleet = await startLoopbackFleet(ips.map((ip, i) => ({ ip, name: `vllm-${String(i)}` })), options.adapters);
  const api = await startFakeApiServer();
  const kube = await writeKubeconfig(api.url);
  api.store.create(POOLS, 'default', poolObject('chat', { app: 'vllm' }, [fleet.port]));
  for (const [i, ip] of ips.slice(0, options.running ?? 2).entries()) api.store.create(PODS, 'default', podObject(`vllm-${String(i)}`, ip));
  return {
    fleet,
    api,
    kube,
    flags: ['--pool-name', 'chat', '--pool-namespace', 'default', '--kubeconfig', kube.path, '--host', '127.0.0.1'],
    async close() {
      await api.close();
      await fleet.close();
      await rm(kube.dir, { recursive: true, force: true });
    },
  };
}
