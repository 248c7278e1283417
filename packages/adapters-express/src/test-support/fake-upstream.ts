import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake model server received. */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Record<string, unknown>;
}

/**
 * Test double of an OpenAI-compatible model server. Behaviour is chosen per request with the
 * `x-test-behavior` header: `die-mid-stream`, `reset` (close before answering), `hang`,
 * `status-503`, `slow-stream` (one chunk per 20 ms), `big` (a 1 MiB completion).
 */
export interface FakeUpstream {
  readonly address: string;
  readonly received: ReceivedRequest[];
  /** Requests whose connection closed before the server finished answering. */
  readonly abortedByClient: number;
  /** Requests currently being answered. */
  readonly open: number;
  close(): Promise<void>;
}

const usage = { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16, prompt_tokens_details: { cached_tokens: 3 } };

function chunk(model: string, i: number, text: string): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
}

/** Starts a fake model server on 127.0.0.1 with a random port. */
export async function startFakeUpstream(name = 'fake'): Promise<FakeUpstream> {
  const received: ReceivedRequest[] = [];
  let abortedByClient = 0;
  let open = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'GET' && req.url === '/metrics') {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
        res.end(
          [
            '# TYPE vllm:num_requests_waiting gauge',
            `vllm:num_requests_waiting{model_name="${name}"} 0`,
            '# TYPE vllm:num_requests_running gauge',
            `vllm:num_requests_running{model_name="${name}"} ${open}`,
            '# TYPE vllm:kv_cache_usage_perc gauge',
            `vllm:kv_cache_usage_perc{model_name="${name}"} 0.1`,
            '',
          ].join('\n'),
        );
        return;
      }
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: `${name}-model`, object: 'model', created: 0, owned_by: name }] }));
        return;
      }
      const body = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const behavior = String(req.headers['x-test-behavior'] ?? '');
      const model = typeof body.model === 'string' ? body.model : 'unknown';
      open++;
      res.on('close', () => {
        open--;
        if (!res.writableFinished) abortedByClient++;
      });
      if (behavior === 'reset') {
        req.socket.destroy();
        return;
      }
      if (behavior === 'hang') return;
      if (behavior === 'status-503') {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: 503 } }));
        return;
      }
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const parts = ['Hello', ' from', ` ${name}`];
        if (behavior === 'die-mid-stream') {
          res.write(chunk(model, 0, parts[0] ?? ''));
          setTimeout(() => req.socket.destroy(), 20);
          return;
        }
        const withUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
        const finish = (): void => {
          if (withUsage) res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [], usage })}\n\n`);
          res.end('data: [DONE]\n\n');
        };
        if (behavior === 'slow-stream') {
          let i = 0;
          const timer = setInterval(() => {
            if (res.destroyed) { clearInterval(timer); return; }
            if (i >= 50) {
              clearInterval(timer);
              finish();
              return;
            }
            res.write(chunk(model, i, `tok${i} `));
            i++;
          }, 20);
          return;
        }
        parts.forEach((p, i) => res.write(chunk(model, i, p)));
        finish();
        return;
      }
      const content = behavior === 'big' ? 'x'.repeat(1 << 20) : `Hello from ${name}`;
      const answer = JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${port}`,
    received,
    get abortedByClient() {
      return abortedByClient;
    },
    get open() {
      return open;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => { resolve(); });
      }),
  };
}
