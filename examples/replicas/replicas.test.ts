import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServerHandle } from '@switchyard/redis';
import { startFleet, type Fleet } from '@switchyard/simulator';
import { EnvoyEmulator } from '../../packages/adapters-envoy/src/test-support/envoy-client.js';
import { reqBody, reqHeaders, respBody, respHeaders, setHeaders } from '../../packages/adapters-envoy/src/test-support/wire-helpers.js';

/*
 * The Done-when of shared state, end to end through the built CLIs (`npm run build` first): real
 * processes, a real redis-server, the simulator's live HTTP fleet.
 */

interface Replica {
  readonly metricsUrl: string;
  readonly lines: string[];
  stop(): Promise<void>;
}
interface GatewayReplica extends Replica {
  readonly url: string;
}
interface EppReplica extends Replica {
  readonly grpcPort: number;
}
type Message = { role: string; content: string };
type Sent = { status: number; endpoint: string | undefined };
interface Played {
  readonly stickiness: number;
  readonly statuses: number[];
}
interface ExampleModule {
  startGatewayProcess(o: { endpoints: string[]; redisUrl?: string | undefined }): Promise<GatewayReplica>;
  startEppProcess(o: { endpoints: string[]; redisUrl?: string | undefined }): Promise<EppReplica>;
  chatThroughGateway(url: string, messages: Message[]): Promise<Sent>;
  playConversations(o: { send: (replica: number, messages: Message[]) => Promise<Sent>; replicas: number; conversations?: number; turns?: number; tag: string; afterTurn?: (picks: number[]) => Promise<void> }): Promise<Played>;
  waitForSharedHistory(metricsUrls: string[]): (picks: number[]) => Promise<void>;
  metricValue(metricsUrl: string, name: string, labels?: string): Promise<number>;
  until(what: string, check: () => Promise<boolean>): Promise<void>;
}

/** The example is plain JavaScript: import it untyped and describe what the test uses. */
const load = (path: string): Promise<unknown> => import(path);
const CONVERSATIONS = 8;
const TURNS = 4;
/**
 * Live model servers report load through scraped metrics, which enter every score; so "as sticky
 * as one process" allows one follow-up turn of the whole run to differ from the one-process run.
 */
const ONE_TURN = 1 / (CONVERSATIONS * (TURNS - 1));

let ex: ExampleModule;
let redis: RedisServerHandle;
let fleet: Fleet;
let endpoints: string[];
const started: Replica[] = [];
beforeAll(async () => {
  ex = (await load('./replicas.mjs')) as ExampleModule;
  redis = await startRedisServer();
  fleet = await startFleet({ pods: 4, timeScale: 50 });
  endpoints = fleet.endpoints.map((e) => e.address);
});
afterAll(async () => {
  await Promise.all(started.map((r) => r.stop()));
  await fleet.close();
  await redis.stop();
});

async function track<R extends Replica>(replica: Promise<R>): Promise<R> {
  const r = await replica;
  started.push(r);
  return r;
}

/**
 * The scenario both topologies share: one replica's stickiness; two sharing Redis are as sticky;
 * two without it are not; with redis-server stopped every request is still served, the replicas
 * say so once, and they rejoin when it is back (empty).
 */
async function scenario<R extends Replica>(start: (redisUrl?: string) => Promise<R>, send: (replica: R, messages: Message[]) => Promise<Sent>): Promise<void> {
  const play = (replicas: R[], tag: string, afterTurn?: (picks: number[]) => Promise<void>, turns = TURNS): Promise<Played> =>
    ex.playConversations({ send: (r, m) => send(replicas[r] as R, m), replicas: replicas.length, conversations: CONVERSATIONS, turns, tag, ...(afterTurn === undefined ? {} : { afterTurn }) });

  const one = await track(start());
  const single = await play([one], 'one');
  await one.stop();
  expect(single.stickiness).toBeGreaterThanOrEqual(0.9);

  const shared = [await track(start(redis.url)), await track(start(redis.url))];
  const two = await play(shared, 'shared', ex.waitForSharedHistory(shared.map((r) => r.metricsUrl)));
  expect(two.stickiness).toBeGreaterThanOrEqual(single.stickiness - ONE_TURN);
  expect(two.statuses.every((s) => s === 200)).toBe(true);

  const alone = [await track(start()), await track(start())];
  const unshared = await play(alone, 'alone');
  expect(unshared.stickiness).toBeLessThan(0.6);
  await Promise.all(alone.map((r) => r.stop()));

  const before = shared.map((r) => r.lines.length);
  await redis.stop();
  const down = await play(shared, 'down', undefined, 2);
  for (const r of shared) await ex.until('the replica to notice', async () => (await ex.metricValue(r.metricsUrl, 'switchyard_shared_state_connected')) === 0);
  const later = await play(shared, 'later', undefined, 1);
  expect([...down.statuses, ...later.statuses]).toEqual(new Array(CONVERSATIONS * 3).fill(200));
  // One line per outage, however many syncs fail during it.
  shared.forEach((r, i) => {
    expect(r.lines.slice(before[i]).filter((l) => l.includes('shared state: sync failed'))).toHaveLength(1);
  });

  await redis.restart();
  for (const r of shared) await ex.until('the replica to rejoin', async () => (await ex.metricValue(r.metricsUrl, 'switchyard_shared_state_connected')) === 1);
  for (const r of shared) expect(r.lines.some((l) => l.includes('shared state: sync works again'))).toBe(true);
  await Promise.all(shared.map((r) => r.stop()));
}

describe('examples/replicas: one redis-server, several processes', () => {
  it('two switchyard-gateway processes route a multi-turn workload as stickily as one and keep serving with redis-server stopped', async () => {
    await scenario(
      (redisUrl) => ex.startGatewayProcess({ endpoints, redisUrl }),
      (gw, messages) => ex.chatThroughGateway(gw.url, messages),
    );
  }, 300_000);

  it('two switchyard-epp processes do the same over ext_proc', async () => {
    const envoys = new Map<number, EnvoyEmulator>();
    try {
      await scenario(
        (redisUrl) => ex.startEppProcess({ endpoints, redisUrl }),
        async (epp, messages) => {
          let envoy = envoys.get(epp.grpcPort);
          if (envoy === undefined) envoys.set(epp.grpcPort, (envoy = new EnvoyEmulator(epp.grpcPort)));
          return viaEnvoy(envoy, messages);
        },
      );
    } finally {
      for (const e of envoys.values()) e.close();
    }
  }, 300_000);
});

/**
 * What Envoy does for one request: asks the EPP, forwards to the endpoint it picked (a live
 * simulated pod), and streams the response back through ext_proc so the request completes.
 */
async function viaEnvoy(envoy: EnvoyEmulator, messages: Message[]): Promise<Sent> {
  const s = envoy.open();
  const body = JSON.stringify({ model: 'meta-llama/Llama-3.1-8B-Instruct', messages, max_tokens: 4 });
  s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json' }));
  s.send(reqBody(body, true));
  const [head] = await s.waitFor(1);
  const endpoint = head?.request_headers === undefined ? undefined : setHeaders(head.request_headers.response.header_mutation)['x-gateway-destination-endpoint'];
  if (endpoint === undefined) {
    s.cancel();
    await s.ended;
    return { status: 503, endpoint: undefined };
  }
  const res = await fetch(`http://${endpoint}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const answer = await res.text();
  s.send(respHeaders({ ':status': String(res.status), 'content-type': 'application/json' }));
  s.send(respBody(answer, true));
  s.halfClose();
  await s.ended;
  return { status: res.status, endpoint };
}
