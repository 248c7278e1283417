/*
 * One API shape is read in one place (core's response module); both adapters call it. This test
 * feeds identical upstream bytes through each adapter's public path (the HTTP gateway over a real
 * socket, the ext_proc stream as Envoy drives it) and expects the same bytes to reach the client
 * and the same usage to reach the decision.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { EndpointPicker, EndpointPool, ModelRewriteStore, createSchedulerConfig, type RequestOutcome, type RequestScheduler, type Usage } from '@switchyard/core';
import { createGatewayHandler, type GatewayHandler } from '@switchyard/express';
import { ExtProcStream, type ExtProcSink } from '@switchyard/envoy';

interface Case {
  readonly name: string;
  readonly contentType: string;
  /** Upstream body, in the chunks it is sent in. */
  readonly chunks: readonly string[];
  readonly expectBody: string;
  readonly expectUsage: Usage | undefined;
}

const usage = (promptTokens: number, completionTokens: number, cachedTokens?: number): Usage => (cachedTokens === undefined ? { promptTokens, completionTokens } : { promptTokens, completionTokens, cachedTokens });

/** A gRPC frame of `google.api.HttpBody { data = 2 }` holding `json` (short enough for one-byte lengths). */
function grpcHttpBody(json: string): string {
  const message = `\u0012${String.fromCharCode(json.length)}${json}`;
  return `\u0000\u0000\u0000\u0000${String.fromCharCode(message.length)}${message}`;
}

const CASES: readonly Case[] = [
  {
    name: 'chat/completions JSON',
    contentType: 'application/json',
    chunks: ['{"id":"x","model":"tar', 'get","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":4}}}'],
    expectBody: '{"id":"x","model":"client","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":4}}}',
    expectUsage: usage(7, 3, 4),
  },
  {
    name: 'Responses API JSON (input_tokens_details.cached_tokens)',
    contentType: 'application/json',
    chunks: ['{"object":"response","model":"target","output":[],"usage":{"input_tokens":40,"input_tokens_details":{"cached_tokens":32},"output_tokens":5}}'],
    expectBody: '{"object":"response","model":"client","output":[],"usage":{"input_tokens":40,"input_tokens_details":{"cached_tokens":32},"output_tokens":5}}',
    expectUsage: usage(40, 5, 32),
  },
  {
    name: 'spaces around the colon',
    contentType: 'application/json; charset=utf-8',
    chunks: ['{"model" :', ' "target"}'],
    expectBody: '{"model":"client"}',
    expectUsage: undefined,
  },
  {
    name: 'a nested "model" after the document’s own',
    contentType: 'application/json',
    chunks: ['{"model":"target","metadata":{"model":"target"}}'],
    expectBody: '{"model":"client","metadata":{"model":"target"}}',
    expectUsage: undefined,
  },
  {
    name: 'chat/completions SSE',
    contentType: 'text/event-stream',
    chunks: ['data: {"model":"target","choices":[{"delta":{"content":"hi"}}]}\n\ndata: {"model":"tar', 'get","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2}}\n\ndata: [DONE]\n\n'],
    expectBody: 'data: {"model":"client","choices":[{"delta":{"content":"hi"}}]}\n\ndata: {"model":"client","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2}}\n\ndata: [DONE]\n\n',
    expectUsage: usage(9, 2),
  },
  {
    name: 'Responses API SSE',
    contentType: 'text/event-stream',
    chunks: ['event: response.completed\ndata: {"type":"response.completed","response":{"model":"target","usage":{"input_tokens":5,"input_tokens_details":{"cached_tokens":2},"output_tokens":6}}}\n\n'],
    expectBody: 'event: response.completed\ndata: {"type":"response.completed","response":{"model":"client","usage":{"input_tokens":5,"input_tokens_details":{"cached_tokens":2},"output_tokens":6}}}\n\n',
    expectUsage: usage(5, 6, 2),
  },
  {
    name: 'Anthropic Messages SSE',
    contentType: 'text/event-stream',
    chunks: ['event: message_start\ndata: {"type":"message_start","message":{"model":"target","usage":{"input_tokens":25,"output_tokens":1}}}\n\n', 'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":15}}\n\n'],
    expectBody: 'event: message_start\ndata: {"type":"message_start","message":{"model":"client","usage":{"input_tokens":25,"output_tokens":1}}}\n\nevent: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":15}}\n\n',
    expectUsage: usage(25, 15),
  },
  {
    name: 'SGLang generate JSON (usage in meta_info)',
    contentType: 'application/json',
    chunks: ['{"text":"hi","output_ids":[5,6],"meta_info":{"id":"r1","finish_reason":{"type":"stop"},', '"prompt_tokens":8,"completion_tokens":2,"cached_tokens":4}}'],
    expectBody: '{"text":"hi","output_ids":[5,6],"meta_info":{"id":"r1","finish_reason":{"type":"stop"},"prompt_tokens":8,"completion_tokens":2,"cached_tokens":4}}',
    expectUsage: usage(8, 2, 4),
  },
  {
    name: 'SGLang generate SSE (the finished event’s meta_info)',
    contentType: 'text/event-stream',
    chunks: ['data: {"text":"h","meta_info":{"prompt_tokens":8,"completion_tokens":1,"finish_reason":null}}\n\ndata: {"text":"hi","meta_', 'info":{"prompt_tokens":8,"completion_tokens":2,"finish_reason":{"type":"length"}}}\n\ndata: [DONE]\n\n'],
    expectBody: 'data: {"text":"h","meta_info":{"prompt_tokens":8,"completion_tokens":1,"finish_reason":null}}\n\ndata: {"text":"hi","meta_info":{"prompt_tokens":8,"completion_tokens":2,"finish_reason":{"type":"length"}}}\n\ndata: [DONE]\n\n',
    expectUsage: usage(8, 2),
  },
  {
    name: 'Vertex AI gRPC HttpBody (usage from the wrapped JSON, bytes untouched)',
    contentType: 'application/grpc',
    chunks: [grpcHttpBody('{"model":"target","usage":{"prompt_tokens":6,"completion_tokens":2}}')],
    expectBody: grpcHttpBody('{"model":"target","usage":{"prompt_tokens":6,"completion_tokens":2}}'),
    expectUsage: usage(6, 2),
  },
  {
    name: 'an opaque body',
    contentType: 'text/plain',
    chunks: ['{"model":"target"}'],
    expectBody: '{"model":"target"}',
    expectUsage: undefined,
  },
];

const REQUEST = JSON.stringify({ model: 'client', messages: [{ role: 'user', content: 'hi' }] });

/** The real picker with the rewrite client → target, recording each request's outcome. */
function recordingPicker(pool: EndpointPool): { scheduler: RequestScheduler; outcomes: RequestOutcome[] } {
  const picker = new EndpointPicker({
    pool,
    config: createSchedulerConfig({ profiles: [{}], pool }),
    rewrites: new ModelRewriteStore([{ name: 'r', rules: [{ matches: ['client'], targets: [{ modelRewrite: 'target' }] }] }]),
  });
  const outcomes: RequestOutcome[] = [];
  const scheduler: RequestScheduler = {
    pick: async (req, options) => {
      const d = await picker.pick(req, options);
      return new Proxy(d, {
        get(target, key) {
          if (key === 'complete') return (outcome: RequestOutcome) => { outcomes.push(outcome); target.complete(outcome); };
          const v = Reflect.get(target, key, target) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    },
  };
  return { scheduler, outcomes };
}

let current: Case = CASES[0] as Case;
let upstream: Server;
let gateway: Server;
let handler: GatewayHandler;
let gatewayUrl = '';
const pool = new EndpointPool();
const gatewayPicker = recordingPicker(pool);

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': current.contentType });
      for (const c of current.chunks) res.write(c);
      res.end();
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  pool.add({ address: `127.0.0.1:${(upstream.address() as AddressInfo).port}` });
  handler = createGatewayHandler({ scheduler: gatewayPicker.scheduler, endpoints: pool });
  gateway = createServer(handler);
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await handler.close({ graceMs: 1000 });
  gateway.closeAllConnections();
  await new Promise<void>((resolve) => gateway.close(() => { resolve(); }));
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => { resolve(); }));
});

async function throughGateway(c: Case): Promise<{ body: string; usage: Usage | undefined }> {
  current = c;
  const r = await request(`${gatewayUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: REQUEST });
  const body = await r.body.text();
  const outcome = gatewayPicker.outcomes.at(-1);
  return { body, usage: outcome?.kind === 'success' ? outcome.usage : undefined };
}

const headerMap = (h: Record<string, string>): { headers: { key: string; raw_value: Buffer }[] } => ({ headers: Object.entries(h).map(([key, v]) => ({ key, raw_value: Buffer.from(v) })) });

async function throughExtProc(c: Case): Promise<{ body: string; usage: Usage | undefined }> {
  const { scheduler, outcomes } = recordingPicker(pool);
  const out: Buffer[] = [];
  const sink: ExtProcSink = {
    send: (m) => {
      const bytes = m.response_body?.response.body_mutation?.streamed_response.body;
      if (bytes !== undefined) out.push(Buffer.from(bytes));
    },
    close: () => undefined,
    fail: (e) => { throw e; },
  };
  const s = new ExtProcStream(sink, { scheduler, pool });
  s.receive({ request_headers: { headers: headerMap({ ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json' }), end_of_stream: false } });
  s.receive({ request_body: { body: Buffer.from(REQUEST), end_of_stream: true } });
  await s.idle();
  s.receive({ response_headers: { headers: headerMap({ ':status': '200', 'content-type': c.contentType }), end_of_stream: false } });
  c.chunks.forEach((chunk, i) => { s.receive({ response_body: { body: Buffer.from(chunk), end_of_stream: i === c.chunks.length - 1 } }); });
  s.end();
  const outcome = outcomes.at(-1);
  return { body: Buffer.concat(out).toString('utf8'), usage: outcome?.kind === 'success' ? outcome.usage : undefined };
}

describe('response handling: the HTTP gateway and the ext_proc adapter agree', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const viaGateway = await throughGateway(c);
      const viaExtProc = await throughExtProc(c);
      expect(viaGateway).toEqual({ body: c.expectBody, usage: c.expectUsage });
      expect(viaExtProc).toEqual(viaGateway);
    });
  }
});
