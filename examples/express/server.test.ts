import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { startFleet, type Fleet } from '@switchyard/simulator';

/** The example is plain JavaScript: import it untyped and describe what the test uses. */
const load = (path: string): Promise<unknown> => import(path);

interface ExampleModule {
  startExpressGateway(options: { endpoints: string[] }): Promise<{ url: string; close(): Promise<void> }>;
}

describe('examples/express', () => {
  let fleet: Fleet;
  let gw: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    fleet = await startFleet({ pods: 2, timeScale: 100 });
    const mod = (await load('./server.mjs')) as ExampleModule;
    gw = await mod.startExpressGateway({ endpoints: fleet.endpoints.map((e) => e.address) });
  });
  afterAll(async () => {
    await gw.close();
    await fleet.close();
  });

  it('serves chat completions to an authenticated openai client, streamed and not', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-team-a', maxRetries: 0 });
    const model = 'meta-llama/Llama-3.1-8B-Instruct';
    const c = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hi' }], max_completion_tokens: 8 });
    expect(c.model).toBe(model);
    expect(c.usage?.completion_tokens).toBeGreaterThan(0);
    const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hi' }], max_completion_tokens: 8, stream: true });
    let chunks = 0;
    for await (const _ of stream) chunks++;
    expect(chunks).toBeGreaterThan(1);
  });

  it('rejects unknown keys before scheduling and keeps app routes', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-nope', maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 401 });
    const root = await fetch(gw.url);
    expect(await root.json()).toMatchObject({ service: 'example LLM gateway' });
  });
});
