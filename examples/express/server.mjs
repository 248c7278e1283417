// An Express app that is also an OpenAI-compatible inference gateway: your routes and your auth,
// Switchyard's scheduling (llm-d's default profile: queue, KV-cache and prefix-cache scorers).
//
//   npm run build
//   node examples/express/server.mjs --endpoints 10.0.0.1:8000,10.0.0.2:8000 [--port 8080]
//   node examples/express/server.mjs            # no endpoints: starts 2 simulated vLLM pods
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createGatewayFromConfig, switchyard } from '@switchyard/express';

/** API keys → fairness id and objective. In real life this is your identity provider. */
const API_KEYS = {
  'sk-team-a': { fairnessId: 'team-a' },
  'sk-team-b': { fairnessId: 'team-b', objective: 'batch' },
};
const keyOf = (req) => (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');

/**
 * Starts the example gateway.
 * @param {{ endpoints: string[], port?: number, host?: string }} options
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startExpressGateway({ endpoints, port = 0, host = '127.0.0.1' }) {
  const gateway = await createGatewayFromConfig({
    endpoints,
    // The classify hook maps the authenticated key to a fairness id: clients cannot pick their
    // own by sending x-llm-d-* headers (those are stripped and ignored by default).
    handler: { classify: (req) => API_KEYS[keyOf(req)] },
  });
  const app = express();
  app.get('/', (_req, res) => {
    res.json({ service: 'example LLM gateway', try: 'POST /v1/chat/completions with Authorization: Bearer sk-team-a' });
  });
  // Authentication in front of the gateway: unknown keys never reach the scheduler.
  app.use('/v1', (req, res, next) => {
    if (req.method === 'POST' && API_KEYS[keyOf(req)] === undefined) {
      res.status(401).json({ error: { message: 'invalid API key', type: 'invalid_request_error', code: 'invalid_api_key', param: null } });
      return;
    }
    next();
  });
  app.use(switchyard(gateway.handler));
  const server = app.listen(port, host);
  await once(server, 'listening');
  const url = `http://${host}:${server.address().port}`;
  return {
    url,
    close: async () => {
      await gateway.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function main() {
  const { values } = parseArgs({ options: { endpoints: { type: 'string' }, port: { type: 'string', default: '8080' }, host: { type: 'string', default: '127.0.0.1' } } });
  let endpoints = values.endpoints?.split(',').filter(Boolean);
  let fleet;
  if (endpoints === undefined) {
    const { startFleet } = await import('@switchyard/simulator');
    fleet = await startFleet({ pods: 2, timeScale: 10 });
    endpoints = fleet.endpoints.map((e) => e.address);
    process.stderr.write(`started 2 simulated vLLM pods: ${endpoints.join(', ')}\n`);
  }
  const gw = await startExpressGateway({ endpoints, port: Number(values.port), host: values.host });
  process.stderr.write(`Express gateway on ${gw.url}\n  curl ${gw.url}/v1/chat/completions -H 'authorization: Bearer sk-team-a' -H 'content-type: application/json' -d '{"model":"meta-llama/Llama-3.1-8B-Instruct","messages":[{"role":"user","content":"hi"}]}'\n`);
  const stop = async () => {
    await gw.close();
    await fleet?.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
