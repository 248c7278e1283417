// Switchyard gateway for the benchmark.  node proxy-switchyard.mjs <port> <upstream,upstream> [mode]
// Modes:
// - "default": createGatewayFromConfig with llm-d's default scheduling config (JSON parsed, prefix
//   hashed, scored, picked, forwarded, metrics scraped every 50 ms);
// - "noscrape": the same without polling the upstreams' /metrics;
// - "noprefix": llm-d's default profile without the prefix producers and scorer;
// - "profile": the switchyard routing profile (estimated-ttft-scorer on the approximate index);
// - "rr": the same handler with a trivial round-robin scheduler (gateway cost without scheduling).
import { createServer } from 'node:http';
import { EndpointPool, DESTINATION_HEADER } from '@switchyard/core';
import * as express from '@switchyard/express';
import { SWITCHYARD_PROFILE_YAML } from '@switchyard/prefix-index';

const port = Number(process.argv[2]);
const endpoints = process.argv[3].split(',');
const mode = process.argv[4] ?? 'default';
const NO_PREFIX = 'apiVersion: llm-d.ai/v1\nkind: EndpointPickerConfig\nplugins:\n- type: queue-scorer\n- type: kv-cache-utilization-scorer\n- type: max-score-picker\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: queue-scorer\n  - pluginRef: kv-cache-utilization-scorer\n  - pluginRef: max-score-picker\n';

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
} else {
  const gateway = await express.createGatewayFromConfig({ endpoints, port, host: '127.0.0.1', scrapeMetrics: mode !== 'noscrape', ...(mode === 'noprefix' ? { prefixIndex: false, config: NO_PREFIX } : {}), ...(mode === 'profile' ? { config: SWITCHYARD_PROFILE_YAML } : {}) });
  await gateway.listen();
}
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.on('SIGINT', () => process.exit(0));
