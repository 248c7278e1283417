// Switchyard gateway for the benchmark.  node proxy-switchyard.mjs <port> <upstream,upstream> [mode]
// mode "default" (the default): createGatewayFromConfig with llm-d's default scheduling config
// (JSON parsed, prefix hashed, scored, picked, forwarded). mode "rr": the same handler with a
// trivial round-robin scheduler, to separate gateway cost from scheduling cost.
import { createServer } from 'node:http';
import { EndpointPool, DESTINATION_HEADER } from '@switchyard/core';
import * as express from '@switchyard/express';

const port = Number(process.argv[2]);
const endpoints = process.argv[3].split(',');
const mode = process.argv[4] ?? 'default';

let handler;
if (mode === 'rr') {
  const pool = new EndpointPool();
  for (const address of endpoints) pool.add({ address });
  let next = 0;
  // The decision is a class instance and shares its constant parts: it lives until the response
  // ends, and V8 pretenures long-lived object literals (see docs/gateway.md, "Performance").
  const NO_FALLBACKS = Object.freeze([]);
  const RESULT = Object.freeze({ profileResults: new Map(), primaryProfileName: 'rr' });
  const NO_HEADERS = Object.freeze({});
  const headersFor = new Map(endpoints.map((a) => [a, Object.freeze({ [DESTINATION_HEADER]: a })]));
  class Target {
    constructor(model) {
      this.targetModel = model;
    }
  }
  class RoundRobinDecision {
    constructor(request, primary) {
      this.request = new Target(request.model);
      this.primary = primary;
      this.fallbacks = NO_FALLBACKS;
      this.result = RESULT;
      this.headers = headersFor.get(primary.address);
      this.responseHeaders = NO_HEADERS;
      this.body = request.rawBody;
      this.clientModel = request.model;
      this.trace = undefined;
      this.revoked = undefined;
    }
    onResponseStart() {}
    onUsage() {}
    complete() {}
  }
  const scheduler = {
    pick: async (request) => {
      const list = pool.list();
      return new RoundRobinDecision(request, list[next++ % list.length]);
    },
  };
  handler = express.createGatewayHandler({ scheduler, endpoints: pool });
  const server = createServer(handler);
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
} else if (mode === 'picker') {
  // The default config's scheduler behind a plain createGatewayHandler (like "rr"): isolates the
  // scheduler's cost from the rest of createGatewayFromConfig's set-up.
  const gateway = await express.createGatewayFromConfig({ endpoints, scrapeMetrics: true });
  const built = gateway.pools[0].pool;
  let acc = 0, n = 0;
  const timed = { pick(r, o) { const t0 = performance.now(); const p = built.scheduler.pick(r, o); p.then(() => { acc += performance.now() - t0; n++; if (n % 20000 === 0) process.stderr.write(`pick in situ: ${(acc / n * 1000).toFixed(2)} µs\n`); }); return p; } };
  handler = express.createGatewayHandler({ scheduler: process.env.TIME_PICK ? timed : built.scheduler, endpoints: built.endpoints });
  const server = createServer(handler);
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
} else {
  // mode "noscrape": the default config without polling the upstreams' /metrics (isolates its cost).
  const gateway = await express.createGatewayFromConfig({ endpoints, port, host: '127.0.0.1', scrapeMetrics: mode !== 'noscrape' });
  await gateway.listen();
}
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.on('SIGINT', () => process.exit(0));
