import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { startFleet, type Fleet } from '@switchyard/simulator';

/** The example is plain JavaScript: import it untyped and describe what the test uses. */
const load = (path: string): Promise<unknown> => import(path);

interface ExampleModule {
  startFastifyGateway(options: { endpoints: string[] }): Promise<{ url: string; close(): Promise<void> }>;
}

describe('examples/fastify', () => {
  let fleet: Fleet;
  let gw: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    fleet = await startFleet({ pods: 2, timeScale: 100 });
    const mod = (await load('./server.mjs')) as ExampleModule;
    gw = await mod.startFastifyGateway({ endpoints: fleet.endpoints.map((e) => e.address) });
  });
  afterAll(async () => {
    await gw.close();
    await fleet.close();
  });

  it('answers the openai client through the plugin and keeps the app routes', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'none', maxRetries: 0 });
    const model = 'meta-llama/Llama-3.1-8B-Instruct';
    const c = await client.completions.create({ model, prompt: 'Once upon a time', max_tokens: 8 });
    expect(c.model).toBe(model);
    expect((await client.models.list()).data.map((m) => m.id)).toContain(model);
    const status = (await (await fetch(`${gw.url}/status`)).json()) as { pools: { endpoints: number }[] };
    expect(status.pools[0]?.endpoints).toBe(2);
  });

  it('answers an unknown model with the model servers own 404 (one pool, no registry)', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'none', maxRetries: 0 });
    await expect(client.completions.create({ model: 'nope', prompt: 'x', max_tokens: 1 })).rejects.toMatchObject({ status: 404 });
  });
});
