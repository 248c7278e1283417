import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, isSwitchyardError, type InferenceRequest, type PromptView } from '@switchyard/core';
import { createLocalTokenizer, functionTokenizer, readTokenIds, VllmRenderTokenizer } from '@switchyard/prefix-index';
import { inferenceRequest } from '@switchyard/core/testing';

function request(prompt: PromptView, body: Record<string, unknown> = {}): InferenceRequest {
  const raw = new TextEncoder().encode(JSON.stringify({ prompt, body }));
  return inferenceRequest({ prompt, id: 'r1', path: '/v1/chat/completions', body, rawBody: raw, byteSize: raw.byteLength });
}

const chat: PromptView = { kind: 'chat', toolsJson: undefined, messages: [{ role: 'user', content: 'hello world' }] };
const calls: { path: string; body: Record<string, unknown> }[] = [];
let server: Server;
let url: string;
let hang = false;

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      calls.push({ path: req.url ?? '', body });
      if (hang) return; // never answers
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/chat/completions/render') res.end(JSON.stringify({ token_ids: [1, 2, 3] }));
      else if (req.url === '/v1/completions/render') res.end(JSON.stringify([{ token_ids: [4] }, { token_ids: [5, 6] }]));
      else if (req.url === '/tokenize') res.end(JSON.stringify({ count: 2, tokens: [7, 8] }));
      else {
        res.statusCode = 500;
        res.end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
});

describe('VllmRenderTokenizer', () => {
  it('renders chats through /v1/chat/completions/render with the target model, and caches', async () => {
    calls.length = 0;
    const t = new VllmRenderTokenizer({ url });
    const req = request(chat, { model: 'alias', messages: [{ role: 'user', content: 'hello world' }], tools: [] });
    expect(await t.tokenize(req, 'target')).toEqual([[1, 2, 3]]);
    expect(await t.tokenize(req, 'target')).toEqual([[1, 2, 3]]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ path: '/v1/chat/completions/render', body: { model: 'target', tools: [] } });
    expect(t.cacheSize).toBe(1);
  });

  it('renders completion prompt lists and uses /tokenize per prompt', async () => {
    calls.length = 0;
    const texts: PromptView = { kind: 'text', texts: ['a', 'b'] };
    expect(await new VllmRenderTokenizer({ url }).tokenize(request(texts), 'm')).toEqual([[4], [5, 6]]);
    expect(await new VllmRenderTokenizer({ url, api: 'tokenize' }).tokenize(request(texts), 'm')).toEqual([[7, 8], [7, 8]]);
    expect(calls.map((c) => c.path)).toEqual(['/v1/completions/render', '/tokenize', '/tokenize']);
  });

  it('passes token-id prompts through without a call', async () => {
    calls.length = 0;
    const ids = await new VllmRenderTokenizer({ url }).tokenize(request({ kind: 'tokens', tokenIds: [[9, 9]] }), 'm');
    expect(ids).toEqual([[9, 9]]);
    expect(calls).toHaveLength(0);
  });

  it('times out on the injected clock and honours the caller signal', async () => {
    hang = true;
    try {
      const clock = new ManualClock();
      const t = new VllmRenderTokenizer({ url, timeoutMs: 50, clock, cacheSize: 0 });
      const pending = t.tokenize(request(chat), 'm');
      while (calls.length === 0 || clock.pendingTimers === 0) await new Promise((r) => setImmediate(r));
      clock.advance(50);
      const err = await pending.catch((e: unknown) => e);
      expect(isSwitchyardError(err) && err.code).toBe('UPSTREAM_TIMEOUT');

      const ac = new AbortController();
      const p2 = t.tokenize(request({ kind: 'chat', toolsJson: undefined, messages: [{ role: 'user', content: 'x' }] }), 'm', ac.signal);
      ac.abort(new Error('client went away'));
      await expect(p2).rejects.toThrow('client went away');
    } finally {
      hang = false;
    }
  });

  it('reports HTTP errors and answers without token ids', async () => {
    const t = new VllmRenderTokenizer({ url: `${url}/nope` });
    const err = await t.tokenize(request(chat), 'm').catch((e: unknown) => e);
    expect(isSwitchyardError(err) && err.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(readTokenIds({ nothing: true })).toBeUndefined();
    expect(readTokenIds({ token_ids: [[1], [2]] })).toEqual([[1], [2]]);
  });
});

describe('other tokenizers', () => {
  it('wraps a user function', async () => {
    const t = functionTokenizer((_r, model) => [[model.length]]);
    expect(await t.tokenize(request(chat), 'abc')).toEqual([[3]]);
  });

  it('loads a local tokenizer.json through @huggingface/tokenizers', async () => {
    const t = await createLocalTokenizer({
      tokenizerJson: {
        version: '1.0',
        added_tokens: [],
        normalizer: null,
        pre_tokenizer: { type: 'Whitespace' },
        post_processor: null,
        decoder: null,
        model: { type: 'WordLevel', vocab: { '[UNK]': 0, hello: 1, world: 2, user: 3 }, unk_token: '[UNK]' },
      },
    });
    expect(await t.tokenize(request({ kind: 'text', texts: ['hello world'] }), 'm')).toEqual([[1, 2]]);
    expect(await t.tokenize(request(chat), 'm')).toEqual([[3, 1, 2]]);
    await expect(createLocalTokenizer({ tokenizerJson: '/definitely/missing.json' })).rejects.toThrow();
  });

  it('keeps the cacheSize most recently used prompts and none with cacheSize 0', async () => {
    const text = (t: string): InferenceRequest => request({ kind: 'text', texts: [t] }, { prompt: t });
    const fetches = async (t: VllmRenderTokenizer, prompts: string[]): Promise<number> => {
      const before = calls.length;
      for (const p of prompts) await t.tokenize(text(p), 'm');
      return calls.length - before;
    };
    const lru = new VllmRenderTokenizer({ url, cacheSize: 2 });
    expect(await fetches(lru, ['a', 'b', 'a'])).toBe(2); // the second 'a' is cached and now most recent
    expect(await fetches(lru, ['c'])).toBe(1); // evicts 'b', the least recently used
    expect(await fetches(lru, ['a', 'c'])).toBe(0);
    expect(await fetches(lru, ['b'])).toBe(1);
    expect(lru.cacheSize).toBe(2);
    const none = new VllmRenderTokenizer({ url, cacheSize: 0 });
    expect(await fetches(none, ['a', 'a'])).toBe(2);
    expect(none.cacheSize).toBe(0);
  });
});
