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
  const scheduler = {
    pick: async (request) => {
      const list = pool.list();
      const primary = list[next++ % list.length];
      return {
        request: { targetModel: request.model },
        primary,
        fallbacks: [],
        result: { profileResults: new Map(), primaryProfileName: 'rr' },
        headers: { [DESTINATION_HEADER]: primary.address },
        responseHeaders: {},
        body: request.rawBody,
        clientModel: request.model,
        trace: undefined,
        revoked: undefined,
        onResponseStart() {},
        onUsage() {},
        complete() {},
      };
    },
  };
  handler = express.createGatewayHandler({ scheduler, endpoints: pool });
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
