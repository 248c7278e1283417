import OpenAI from 'openai';
import { Packr } from 'msgpackr';
import { Dealer, Subscriber } from 'zeromq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@switchyard/core/testing';
import { ModelServer, renderChatTemplate, tokenizeText, type ModelServerAddress } from '@switchyard/simulator';

const unpackr = new Packr({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' });

/** The core test kit's `waitFor`: re-checked every event-loop turn, no fixed sleeps. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  await waitFor(check, { what });
}

describe('ModelServer (live HTTP + ZMQ)', () => {
  let server: ModelServer;
  let addr: ModelServerAddress;
  let client: OpenAI;
  const sub = new Subscriber();
  const frames: Buffer[][] = [];

  beforeAll(async () => {
    server = new ModelServer({
      podName: 'pod-a',
      profile: 'tiny',
      timeScale: 20,
      overrides: { loraAdapters: ['sql-lora'], loraLoadMs: 20 },
      kvEvents: { endpoint: 'tcp://127.0.0.1:*', replayEndpoint: 'tcp://127.0.0.1:*' },
    });
    addr = await server.listen(0);
    client = new OpenAI({ baseURL: `${addr.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    sub.connect(server.kvPublisher!.endpoint);
    sub.subscribe('kv@');
    void (async () => {
      for await (const f of sub) frames.push(f);
    })();
    await new Promise((r) => setTimeout(r, 200)); // let the subscription propagate (PUB/SUB slow joiner)
  });

  afterAll(async () => {
    sub.close();
    await server.close();
  });

  const system = 'You are a careful assistant that answers in detail. '.repeat(20);

  it('serves non-streaming completions with usage and cached tokens', async () => {
    const prompt = `${system} Question one?`;
    const first = await client.completions.create({ model: 'sim-tiny', prompt, max_tokens: 12 });
    expect(first.object).toBe('text_completion');
    expect(first.choices[0]?.finish_reason).toBe('length');
    expect(first.choices[0]?.text).toHaveLength(48);
    expect(first.usage?.prompt_tokens).toBe(tokenizeText(prompt).length);
    expect(first.usage?.completion_tokens).toBe(12);
    const again = await client.completions.create({ model: 'sim-tiny', prompt: `${system} Question two?`, max_tokens: 3 });
    const details = (again.usage as unknown as { prompt_tokens_details: { cached_tokens: number } }).prompt_tokens_details;
    expect(details.cached_tokens).toBe(Math.floor(tokenizeText(system).length / 16) * 16);
  });

  it('streams chat completions with a final usage chunk', async () => {
    const messages = [{ role: 'system' as const, content: system }, { role: 'user' as const, content: 'Hello there' }];
    await client.chat.completions.create({ model: 'sim-tiny', messages: messages.slice(0, 1), max_completion_tokens: 1 });
    const stream = await client.chat.completions.create({ model: 'sim-tiny', messages, max_completion_tokens: 6, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(content).toHaveLength(24);
    expect(chunks.filter((c) => c.choices[0]?.finish_reason === 'length')).toHaveLength(1);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    const expectedTokens = tokenizeText(renderChatTemplate(messages)).length;
    expect(last?.usage?.prompt_tokens).toBe(expectedTokens);
    expect(last?.usage?.completion_tokens).toBe(6);
    expect(last?.usage?.prompt_tokens_details?.cached_tokens).toBeGreaterThan(0);
  });

  it('streams without usage unless asked, and serves non-streaming chat', async () => {
    const stream = await client.chat.completions.create({ model: 'sim-tiny', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 2, stream: true });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.every((c) => c.usage == null)).toBe(true);
    const chat = await client.chat.completions.create({ model: 'sql-lora', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 5 });
    expect(chat.object).toBe('chat.completion');
    expect(chat.model).toBe('sql-lora');
    expect(chat.choices[0]?.message.content).toHaveLength(20);
  });

  it('lists the base model and adapters, and rejects unknown models', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['sim-tiny', 'sql-lora']);
    await expect(client.completions.create({ model: 'nope', prompt: 'x', max_tokens: 1 })).rejects.toMatchObject({ status: 404 });
    await expect(client.completions.create({ model: 'sim-tiny', prompt: 'x', max_tokens: 0 })).rejects.toMatchObject({ status: 400 });
    // Chat still honours the older max_tokens field.
    const legacy = await fetch(`${addr.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'sim-tiny', messages: [{ role: 'user', content: 'x' }], max_tokens: 3 }) });
    expect(((await legacy.json()) as { usage: { completion_tokens: number } }).usage.completion_tokens).toBe(3);
  });

  it('returns the token ids it uses from /tokenize and /render', async () => {
    const messages = [{ role: 'user', content: 'token me' }];
    const tok = await (await fetch(`${addr.url}/tokenize`, { method: 'POST', body: JSON.stringify({ model: 'sim-tiny', messages }) })).json() as { count: number; tokens: number[] };
    const render = await (await fetch(`${addr.url}/v1/chat/completions/render`, { method: 'POST', body: JSON.stringify({ model: 'sim-tiny', messages }) })).json() as { token_ids: number[] };
    expect(tok.tokens).toEqual([...tokenizeText(renderChatTemplate(messages))]);
    expect(render.token_ids).toEqual(tok.tokens);
    expect(tok.count).toBe(tok.tokens.length);
    const bad = await fetch(`${addr.url}/tokenize`, { method: 'POST', body: '{"model":"sim-tiny"}' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/prompt/);
  });

  it('exposes vLLM metrics and health', async () => {
    expect((await fetch(`${addr.url}/health`)).status).toBe(200);
    const text = await (await fetch(`${addr.url}/metrics`)).text();
    expect(text).toMatch(/^vllm:num_requests_running\{engine="0",model_name="sim-tiny"\} \d+\.0$/m);
    expect(text).toMatch(/^vllm:prefix_cache_hits_total\{engine="0",model_name="sim-tiny"\} [1-9]\d*\.0$/m);
    expect(text).toContain('vllm:lora_requests_info{max_lora="1",');
  });

  it('aborts the request and frees its blocks when the client disconnects', async () => {
    const ac = new AbortController();
    const stream = await client.completions.create({ model: 'sim-tiny', prompt: 'long story '.repeat(300), max_tokens: 5000, stream: true }, { signal: ac.signal });
    let seen = 0;
    try {
      for await (const _ of stream) {
        if (++seen === 3) ac.abort();
      }
    } catch {
      // The client reports the abort either by ending the iteration or by throwing.
    }
    expect(seen).toBeLessThan(5000);
    await until(() => server.engine.liveRequests().length === 0, 'abort');
    expect(server.engine.blocks.numUsed).toBe(0);
    expect(server.engine.stats.finishedAbort).toBeGreaterThanOrEqual(1);
  });

  it('publishes KV events on ZMQ and replays them', async () => {
    await until(() => frames.length > 0, 'kv events');
    const [topic, seq, payload] = frames[0]!;
    expect(topic?.toString()).toBe('kv@pod-a@sim-tiny');
    expect(seq?.length).toBe(8);
    expect(seq?.readBigUInt64BE()).toBe(0n);
    const [ts, events] = unpackr.unpack(payload!) as [number, Record<string, unknown>[]];
    expect(typeof ts).toBe('number');
    expect(events[0]?.type).toBe('BlockStored');
    const firstPrompt = tokenizeText(`${system} Question one?`);
    expect(events[0]?.token_ids).toEqual([...firstPrompt.subarray(0, (events[0]?.token_ids as number[]).length)]);
    const seqs = frames.map((f) => f[1]!.readBigUInt64BE());
    expect(seqs).toEqual(seqs.map((_, i) => BigInt(i)));

    const dealer = new Dealer();
    dealer.connect(server.kvPublisher!.replayEndpoint);
    const start = Buffer.alloc(8);
    start.writeBigUInt64BE(1n);
    await dealer.send(['', start]);
    const replayed: bigint[] = [];
    for (;;) {
      const [, s, p] = await dealer.receive();
      if (s!.equals(Buffer.alloc(8, 0xff))) {
        expect(p?.length).toBe(0);
        break;
      }
      replayed.push(s!.readBigUInt64BE());
    }
    dealer.close();
    expect(replayed[0]).toBe(1n);
    expect(replayed.length).toBe(server.kvPublisher!.published - 1);
  });
});
