// Many gateways, one fleet: two `switchyard-gateway` processes share one redis-server and route a
// multi-turn workload to a simulated vLLM fleet as stickily as one process does; with Redis
// stopped they keep serving from local state.
//
//   npm run build
//   node examples/replicas/replicas.mjs                      # starts redis-server and 4 sim pods
//   node examples/replicas/replicas.mjs --redis-url redis://127.0.0.1:6379
//
// The pieces are exported for examples/replicas/replicas.test.ts, which asserts what this prints
// (and does the same for two `switchyard-epp` processes over ext_proc).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The committed launchers of the two CLIs (they import each package's dist/cli.js). */
export const GATEWAY_BIN = `${ROOT}packages/adapters-express/bin/switchyard-gateway.mjs`;
export const EPP_BIN = `${ROOT}packages/adapters-envoy/bin/switchyard-epp.mjs`;
/** Syncs every 50 ms instead of 200 ms, so the demo's turns follow each other quickly. */
export const CONFIG_FILE = fileURLToPath(new URL('./config.yaml', import.meta.url));
const MODEL = 'meta-llama/Llama-3.1-8B-Instruct';

/**
 * Spawns a CLI and resolves once one of its stderr lines matches `ready` (or rejects when it
 * exits first). Every stderr line is kept in `lines`.
 * @returns {Promise<{ match: RegExpMatchArray, lines: string[], stop(): Promise<void> }>}
 */
export async function launch(bin, args, ready) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines = [];
  const match = await new Promise((resolve, reject) => {
    createInterface({ input: child.stderr }).on('line', (line) => {
      lines.push(line);
      const m = ready.exec(line);
      if (m !== null) resolve(m);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      reject(new Error(`${bin} exited with ${String(code)} before it was ready:\n${lines.join('\n')}`));
    });
  });
  return {
    match,
    lines,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A `switchyard-gateway` process on a free loopback port; `redisUrl` undefined: no sharing. */
export async function startGatewayProcess({ endpoints, redisUrl }) {
  const args = ['--config', CONFIG_FILE, '--endpoints', endpoints.join(','), '--host', '127.0.0.1', '--port', '0', '--log-level', 'warn'];
  if (redisUrl !== undefined) args.push('--redis-url', redisUrl);
  const p = await launch(GATEWAY_BIN, args, /listening on (http:\/\/\S+?);/);
  const url = p.match[1];
  return { ...p, url, metricsUrl: `${url}/metrics` };
}

/** A `switchyard-epp` process with free loopback gRPC and metrics ports. */
export async function startEppProcess({ endpoints, redisUrl }) {
  const args = ['--config', CONFIG_FILE, '--endpoints', endpoints.join(','), '--host', '127.0.0.1', '--grpc-port', '0', '--metrics-port', '0', '--log-level', 'warn'];
  if (redisUrl !== undefined) args.push('--redis-url', redisUrl);
  const p = await launch(EPP_BIN, args, /effective settings (\{.*\})$/);
  const effective = JSON.parse(p.match[1]);
  return { ...p, grpcPort: effective.grpc.port, metricsUrl: `http://127.0.0.1:${effective.metrics.port}/metrics` };
}

/** A metric from a Prometheus text exposition: the sum over its series that carry `labels`. */
export async function metricValue(metricsUrl, name, labels = '') {
  const text = await (await fetch(metricsUrl)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const space = line.lastIndexOf(' ');
    const series = line.slice(0, space);
    const brace = series.indexOf('{');
    if ((brace === -1 ? series : series.slice(0, brace)) === name && series.includes(labels)) sum += Number(line.slice(space + 1));
  }
  return sum;
}

/**
 * Polls `check` until it returns true; throws after `attempts` tries. A condition, not a
 * duration: how long it takes depends on the sync interval and the machine's load.
 */
export async function until(what, check, attempts = 400) {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** One chat completion through a gateway: its status and the endpoint that served it. */
export async function chatThroughGateway(url, messages) {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, messages, max_tokens: 4 }),
  });
  await res.arrayBuffer();
  return { status: res.status, endpoint: res.headers.get('x-gateway-destination-endpoint-served') ?? undefined };
}

/**
 * Plays `conversations` chats of `turns` turns; turn t of chat c goes to replica (c + t) mod n,
 * so every follow-up turn arrives at a replica that did not route the previous one. Returns the
 * share of follow-up turns routed to the endpoint of the chat's previous turn (stickiness) and
 * every status. `afterTurn(picksPerReplica)` runs after each round of turns (to wait for a sync).
 */
export async function playConversations({ send, replicas, conversations = 12, turns = 4, tag = 'a', afterTurn }) {
  const history = Array.from({ length: conversations }, (_, c) => [{ role: 'system', content: `chat ${tag}-${c}: ${'context '.repeat(300)}` }]);
  const last = new Array(conversations).fill(undefined);
  const picks = new Array(replicas).fill(0);
  const statuses = [];
  let sticky = 0;
  let followUps = 0;
  for (let t = 0; t < turns; t++) {
    for (let c = 0; c < conversations; c++) {
      const messages = history[c];
      messages.push({ role: 'user', content: `turn ${t} of ${tag}-${c}: ${'question '.repeat(60)}` });
      const r = (c + t) % replicas;
      const { status, endpoint } = await send(r, messages);
      picks[r]++;
      statuses.push(status);
      if (last[c] !== undefined) {
        followUps++;
        if (endpoint === last[c]) sticky++;
      }
      last[c] = endpoint;
      messages.push({ role: 'assistant', content: `answer ${t} of ${tag}-${c}: ${'words '.repeat(60)}` });
    }
    await afterTurn?.(picks);
  }
  return { stickiness: sticky / followUps, statuses };
}

/**
 * Waits until every replica has received the routing-history records of every pick the others
 * made (one record per pick), read from each replica's `/metrics`.
 */
export function waitForSharedHistory(metricsUrls) {
  return async (picks) => {
    const total = picks.reduce((a, b) => a + b, 0);
    for (let r = 0; r < metricsUrls.length; r++) {
      const expected = total - picks[r];
      await until(`replica ${r} to receive ${expected} records`, async () => (await metricValue(metricsUrls[r], 'switchyard_shared_state_records_total', 'direction="received"')) >= expected);
    }
  };
}

async function main() {
  const { values } = parseArgs({ options: { 'redis-url': { type: 'string' } } });
  const { startFleet } = await import('@switchyard/simulator');
  const { startRedisServer } = await import('@switchyard/redis');
  const redis = values['redis-url'] === undefined ? await startRedisServer() : undefined;
  const redisUrl = values['redis-url'] ?? redis.url;
  const fleet = await startFleet({ pods: 4, timeScale: 50 });
  const endpoints = fleet.endpoints.map((e) => e.address);
  const started = [];
  try {
    const one = await startGatewayProcess({ endpoints });
    started.push(one);
    const single = await playConversations({ send: (_r, m) => chatThroughGateway(one.url, m), replicas: 1, tag: 'one' });
    await one.stop();
    const shared = [await startGatewayProcess({ endpoints, redisUrl }), await startGatewayProcess({ endpoints, redisUrl })];
    started.push(...shared);
    const two = await playConversations({ send: (r, m) => chatThroughGateway(shared[r].url, m), replicas: 2, tag: 'shared', afterTurn: waitForSharedHistory(shared.map((g) => g.metricsUrl)) });
    const alone = [await startGatewayProcess({ endpoints }), await startGatewayProcess({ endpoints })];
    started.push(...alone);
    const unshared = await playConversations({ send: (r, m) => chatThroughGateway(alone[r].url, m), replicas: 2, tag: 'alone' });
    console.log(`stickiness: one gateway ${single.stickiness.toFixed(2)}, two sharing Redis ${two.stickiness.toFixed(2)}, two without ${unshared.stickiness.toFixed(2)}`);
    if (redis !== undefined) {
      await redis.stop();
      const down = await playConversations({ send: (r, m) => chatThroughGateway(shared[r].url, m), replicas: 2, tag: 'down', turns: 2 });
      const ok = down.statuses.filter((s) => s === 200).length;
      console.log(`redis-server stopped: ${ok} of ${down.statuses.length} requests served`);
    }
  } finally {
    await Promise.all(started.map((p) => p.stop()));
    await fleet.close();
    await redis?.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
