import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An idle vLLM `/metrics` page: nothing waiting, nothing running, an empty KV cache. */
export const IDLE_VLLM_METRICS = 'vllm:num_requests_waiting 0\nvllm:num_requests_running 0\nvllm:kv_cache_usage_perc 0\n';

/** A one-choice chat completion of model `m` (3 prompt tokens, 1 completion token). */
export const CHAT_COMPLETION_REPLY = JSON.stringify({
  id: 'x',
  object: 'chat.completion',
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});

/** What the stub answers; everything but `/metrics` and `/v1/models` goes to `inference`. */
export interface ModelServerStubOptions {
  /** The `/metrics` answer: a page (200), or a status and page per poll (default: {@link IDLE_VLLM_METRICS}). */
  readonly metrics?: () => string | { readonly status: number; readonly body: string };
  /** The `data` of `/v1/models`; without it `/v1/models` goes to `inference` too. */
  readonly models?: readonly Record<string, unknown>[];
  /** Answers every other request, its body read whole. */
  readonly inference: (req: IncomingMessage, res: ServerResponse, body: string) => void;
}

/** A running stub: its `ip:port` and how to stop it. */
export interface ModelServerStub {
  readonly address: string;
  close(): Promise<void>;
}

/**
 * A minimal model server for end-to-end tests of the CLIs: `/metrics`, optionally `/v1/models`,
 * and the test's own inference handler, on 127.0.0.1 at a free port.
 */
export async function startModelServerStub(options: ModelServerStubOptions): Promise<ModelServerStub> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/metrics') {
        const page = options.metrics?.() ?? IDLE_VLLM_METRICS;
        const { status, body: text } = typeof page === 'string' ? { status: 200, body: page } : page;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
        return;
      }
      if (req.url === '/v1/models' && options.models !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: options.models }));
        return;
      }
      options.inference(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => { resolve(); })),
  };
}
