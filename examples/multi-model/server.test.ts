import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { startFleet, type Fleet } from '@switchyard/simulator';

/** The example is plain JavaScript: import it untyped and describe what the test uses. */
const load = (path: string): Promise<unknown> => import(path);

interface ExampleModule {
  startMultiModelGateway(options: { endpoints: Record<string, string[]>; port: number }): Promise<{ url: string; close(): Promise<void> }>;
}

describe('examples/multi-model', () => {
  let llama: Fleet;
  let qwen: Fleet;
  let gw: { url: string; close(): Promise<void> };
  let client: OpenAI;

  beforeAll(async () => {
    llama = await startFleet({ pods: 2, timeScale: 100, namePrefix: 'llama', overrides: { loraAdapters: ['sql-lora', 'support-lora'] } });
    qwen = await startFleet({ pods: 1, timeScale: 100, profile: '32b-h100', namePrefix: 'qwen' });
    const mod = (await load('./server.mjs')) as ExampleModule;
    gw = await mod.startMultiModelGateway({
      endpoints: { llama: llama.endpoints.map((e) => e.address), qwen: qwen.endpoints.map((e) => e.address) },
      port: 0,
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'none', maxRetries: 0 });
  });
  afterAll(async () => {
    await gw.close();
    await llama.close();
    await qwen.close();
  });

  it('lists every model, adapter and route', async () => {
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(['meta-llama/Llama-3.1-8B-Instruct', 'sql-lora', 'support-lora', 'Qwen/Qwen3-32B', 'assistant']);
  });

  it('sends each model and LoRA adapter to its own pool', async () => {
    const llamaAddrs = llama.endpoints.map((e) => e.address);
    const lora = await client.chat.completions.create({ model: 'sql-lora', messages: [{ role: 'user', content: 'select 1' }], max_completion_tokens: 4 }).withResponse();
    expect(lora.data.model).toBe('sql-lora');
    expect(llamaAddrs).toContain(lora.response.headers.get('x-gateway-destination-endpoint-served'));
    const q = await client.chat.completions.create({ model: 'Qwen/Qwen3-32B', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 4 }).withResponse();
    expect(q.response.headers.get('x-gateway-destination-endpoint-served')).toBe(qwen.endpoints[0]?.address);
  });

  it('splits the assistant route across pools and answers under the client name', async () => {
    const served = new Set<string>();
    const canary = qwen.endpoints[0]?.address ?? '';
    // 20% of the route goes to qwen: 100 tries miss it with probability 0.8^100 ≈ 2e-10.
    for (let i = 0; i < 100 && !served.has(canary); i++) {
      const r = await client.chat.completions.create({ model: 'assistant', messages: [{ role: 'user', content: `q${i}` }], max_completion_tokens: 2 }).withResponse();
      expect(r.data.model).toBe('assistant');
      served.add(r.response.headers.get('x-gateway-destination-endpoint-served') ?? '');
    }
    expect(served.has(canary)).toBe(true);
  });

  it('answers an unknown model with 404 model_not_found', async () => {
    await expect(client.chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });
});
