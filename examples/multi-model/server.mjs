// A multi-model gateway from a config file: two pools (Llama with LoRA adapters, Qwen), each with
// its own EndpointPicker, flow control and prefix index, plus a weighted "assistant" route.
//
//   npm run build
//   node examples/multi-model/server.mjs   # starts 3 simulated pods on 127.0.0.1:8001-8003 and
//                                           # the gateway on 127.0.0.1:8080 from gateway.yaml
//   curl 127.0.0.1:8080/v1/models
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse, stringify } from 'yaml';
import { createGatewayFromConfig } from '@switchyard/express';

const CONFIG = fileURLToPath(new URL('./gateway.yaml', import.meta.url));

/**
 * Starts the gateway from gateway.yaml, optionally replacing each pool's endpoints (tests run the
 * pods on ephemeral ports).
 * @param {{ endpoints?: Record<string, string[]>, port?: number }} [options]
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startMultiModelGateway({ endpoints, port } = {}) {
  const doc = parse(await readFile(CONFIG, 'utf8'));
  for (const pool of doc.gateway.pools) if (endpoints?.[pool.name] !== undefined) pool.endpoints = endpoints[pool.name];
  const gateway = await createGatewayFromConfig({ config: stringify(doc), configPath: CONFIG });
  const { url } = await gateway.listen(port);
  return { url, close: () => gateway.close() };
}

async function main() {
  const { startFleet } = await import('@switchyard/simulator');
  const llama = await startFleet({ pods: 2, basePort: 8001, timeScale: 10, namePrefix: 'llama', overrides: { loraAdapters: ['sql-lora', 'support-lora'] } });
  const qwen = await startFleet({ pods: 1, basePort: 8003, timeScale: 10, profile: '32b-h100', namePrefix: 'qwen' });
  const gw = await startMultiModelGateway();
  process.stderr.write(`multi-model gateway on ${gw.url} (pools: llama on :8001-8002, qwen on :8003); try GET ${gw.url}/v1/models\n`);
  const stop = async () => {
    await gw.close();
    await llama.close();
    await qwen.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
