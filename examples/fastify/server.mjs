// A Fastify app with the Switchyard gateway registered as a plugin, next to the app's own routes.
//
//   npm run build
//   node examples/fastify/server.mjs --endpoints 10.0.0.1:8000,10.0.0.2:8000 [--port 8080]
//   node examples/fastify/server.mjs            # no endpoints: starts 2 simulated vLLM pods
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { createGatewayFromConfig } from '@switchyard/express';
import { switchyardFastify } from '@switchyard/express/fastify';

/**
 * Starts the example gateway.
 * @param {{ endpoints: string[], port?: number, host?: string }} options
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startFastifyGateway({ endpoints, port = 0, host = '127.0.0.1' }) {
  // The config could come from a file: createGatewayFromConfig({ config: yamlText, endpoints }).
  const gateway = await createGatewayFromConfig({ endpoints });
  const app = Fastify({ logger: false });
  app.get('/status', async () => ({ pools: gateway.pools.map((p) => ({ name: p.pool.name, endpoints: p.source.size })) }));
  // Registered the Fastify way; the plugin's raw-body parser is encapsulated, so /status and any
  // other route keep Fastify's JSON parsing.
  await app.register(switchyardFastify, { gateway: gateway.handler });
  app.addHook('onClose', async () => {
    await gateway.close();
  });
  const url = await app.listen({ port, host });
  return { url, close: () => app.close() };
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
  const gw = await startFastifyGateway({ endpoints, port: Number(values.port), host: values.host });
  process.stderr.write(`Fastify gateway on ${gw.url} (try GET ${gw.url}/status, POST ${gw.url}/v1/chat/completions)\n`);
  const stop = async () => {
    await gw.close();
    await fleet?.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
