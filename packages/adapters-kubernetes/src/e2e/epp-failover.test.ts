import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { ServingStatus } from '@switchyard/envoy';
import { EnvoyEmulator } from '../../../adapters-envoy/src/test-support/envoy-client.js';
import { reqBody, reqHeaders } from '../../../adapters-envoy/src/test-support/wire-helpers.js';
import { mutationHeaders } from '../test-support/header-mutation.js';
import { eppLeaseName } from '../leader/lease-elector.js';
import type { LeaseObject } from '../resources/types.js';
import { startEppProcess, type EppProcess } from '../test-support/cli-process.js';
import { startFakeApiServer, writeKubeconfig, type FakeApiServer } from '../test-support/fake-api/index.js';
import { startLoopbackFleet, type LoopbackFleet } from '../test-support/loopback-fleet.js';
import { LEASES, PODS, POOLS, podObject, poolObject } from '../test-support/objects.js';

const IPS = ['127.0.0.2', '127.0.0.3'];
// llm-d's 15 s / 10 s / 2 s scaled down so the test takes seconds; the algorithm is the same.
const HA = ['--ha-enable-leader-election', '--ha-lease-duration', '3s', '--ha-renew-deadline', '2s', '--ha-retry-period', '250ms', '--drain-timeout', '3s'];

/** Polls `check` (event-driven wait on real processes) until it holds, or fails naming `what`. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never happened: ${what}`);
}

/** One replica as the test sees it: the process and an Envoy-like client of its port. */
interface Replica {
  readonly proc: EppProcess;
  readonly envoy: EnvoyEmulator;
}

describe('two switchyard-epp processes elect a leader on the Lease (fake API server)', () => {
  let api: FakeApiServer;
  let fleet: LoopbackFleet;
  let kube: { path: string; dir: string };
  const replicas: Replica[] = [];
  const timings: Record<string, number> = {};

  const start = async (): Promise<Replica> => {
    const proc = await startEppProcess(['--pool-name', 'chat', '--pool-namespace', 'default', '--kubeconfig', kube.path, '--host', '127.0.0.1', '--grpc-port', '0', '--metrics-port', '0', ...HA]);
    const r = { proc, envoy: new EnvoyEmulator(proc.port) };
    replicas.push(r);
    return r;
  };
  /** The readiness a kubelet probe (and Envoy's health check) would see; -1 when nothing answers. */
  const readiness = (r: Replica, service = 'readiness'): Promise<number> => r.envoy.check(service).catch(() => -1);
  /** Routes one ext_proc request through `r`; returns the chosen pod address. */
  const route = async (r: Replica): Promise<string> => {
    const s = r.envoy.open();
    s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions' }));
    s.send(reqBody(JSON.stringify({ model: 'm', prompt: `p ${String(Math.random())}` }), true));
    const [head] = await s.waitFor(1);
    s.cancel();
    await s.ended;
    return mutationHeaders(head!.request_headers!.response.header_mutation)['x-gateway-destination-endpoint'] ?? '';
  };
  const pods = (): string[] => IPS.map((ip) => `${ip}:${String(fleet.port)}`);
  /** True once `r` has synced the pool: it routes to one of the pods. */
  const routes = async (r: Replica): Promise<boolean> => pods().includes(await route(r).catch(() => ''));
  const holder = (): string | undefined => (api.store.get(LEASES, 'default', eppLeaseName('default', 'chat')) as LeaseObject).spec?.holderIdentity;
  const transitions = (): number => (api.store.get(LEASES, 'default', eppLeaseName('default', 'chat')) as LeaseObject).spec?.leaseTransitions ?? 0;
  /** The replicas whose readiness is SERVING, among the live ones. */
  const leaders = async (live: readonly Replica[]): Promise<Replica[]> => {
    const states = await Promise.all(live.map((r) => readiness(r)));
    return live.filter((_, i) => states[i] === ServingStatus.SERVING);
  };

  beforeAll(async () => {
    fleet = await startLoopbackFleet(IPS.map((ip, i) => ({ ip, name: `vllm-${String(i)}` })));
    api = await startFakeApiServer();
    kube = await writeKubeconfig(api.url);
    api.store.create(POOLS, 'default', poolObject('chat', { app: 'vllm' }, [fleet.port]));
    for (const [i, ip] of IPS.entries()) api.store.create(PODS, 'default', podObject(`vllm-${String(i)}`, ip));
  });

  afterAll(async () => {
    for (const r of replicas) {
      r.proc.child.kill('SIGKILL');
      await r.proc.exited;
      r.envoy.close();
    }
    await api.close();
    await fleet.close();
    await rm(kube.dir, { recursive: true, force: true });
    if (process.env.FAILOVER_REPORT === '1') process.stdout.write(`failover (3s/2s/250ms lease): ${JSON.stringify(timings)}\n`);
  });

  it('one leader serves readiness; SIGKILL and SIGTERM of the leader each hand over to the standby', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    await until(async () => (await routes(a)) && (await routes(b)), 'both replicas synced the pool');
    await until(async () => (await leaders([a, b])).length === 1, 'exactly one replica is ready');
    const [first] = await leaders([a, b]);
    const standby = first === a ? b : a;
    if (first === undefined) throw new Error('unreachable');
    expect(holder()).toBe(first.proc.identity());
    expect(await readiness(standby)).toBe(ServingStatus.NOT_SERVING);
    expect(await readiness(standby, 'envoy.service.ext_proc.v3.ExternalProcessor')).toBe(ServingStatus.NOT_SERVING);
    // Liveness is SERVING on both, and the standby still routes what reaches it.
    expect(await readiness(standby, 'liveness')).toBe(ServingStatus.SERVING);
    expect(await readiness(first, 'liveness')).toBe(ServingStatus.SERVING);
    expect(pods()).toContain(await route(standby));

    // The leader crashes: its Lease is taken over once it expires.
    let t0 = performance.now();
    first.proc.child.kill('SIGKILL');
    await until(async () => (await readiness(standby)) === ServingStatus.SERVING, 'the standby took over after SIGKILL');
    timings.sigkillMs = Math.round(performance.now() - t0);
    expect(await first.proc.exited).toBe('SIGKILL');
    expect(holder()).toBe(standby.proc.identity());
    expect(transitions()).toBe(1);
    expect(pods()).toContain(await route(standby));

    // Its replacement starts as a standby: still exactly one leader.
    const c = await start();
    await until(() => routes(c), 'the replacement synced the pool');
    expect((await leaders([standby, c])).map((r) => r.proc.identity())).toEqual([standby.proc.identity()]);
    expect(await readiness(c)).toBe(ServingStatus.NOT_SERVING);

    // SIGTERM: NOT_SERVING at once, the Lease released, ext_proc still served for the drain period.
    t0 = performance.now();
    standby.proc.child.kill('SIGTERM');
    await until(async () => (await readiness(standby)) === ServingStatus.NOT_SERVING, 'the terminated leader went NOT_SERVING');
    await until(async () => (await readiness(c)) === ServingStatus.SERVING, 'the replacement took over after SIGTERM');
    timings.sigtermMs = Math.round(performance.now() - t0);
    expect(holder()).toBe(c.proc.identity());
    expect(transitions()).toBe(2);
    expect(await readiness(standby)).toBe(ServingStatus.NOT_SERVING);
    expect(await readiness(standby, 'liveness')).toBe(ServingStatus.SERVING);
    expect(pods()).toContain(await route(standby));
    // After the drain period it stops on its own, cleanly.
    expect(await standby.proc.exited).toBe(0);
    expect(standby.proc.stderr()).toMatch(/lost Lease/);
    expect((await leaders([c])).length).toBe(1);
  }, 90_000);
});
