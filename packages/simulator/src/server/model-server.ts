import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '@switchyard/core';
import { EngineModel, type EngineOptions } from '../engine/engine.js';
import { renderMetrics, type MetricsFlavor } from '../engine/metrics-view.js';
import { HttpError, readBody, sendError, sendJson } from './http-util.js';
import { KvEventPublisher, type KvEventPublisherOptions } from './kv-publisher.js';
import { parseGeneration, parsePromptBody, type GenerationApi } from './openai-parse.js';
import { streamGeneration, collectGeneration, type GenerationContext } from './generation.js';
import { scaledClock } from './scaled-clock.js';

/**
 * Options of {@link ModelServer}.
 * @public
 * @category Server
 */
export interface ModelServerOptions extends Omit<EngineOptions, 'clock'> {
  /** Pod name used in the default KV topic and the `x-simulator-pod` header (default `sim-0`). */
  readonly podName?: string;
  /** Model time runs this many times faster than real time (default 1). */
  readonly timeScale?: number;
  /** Metric names of `/metrics` (default `vllm`). */
  readonly metricsFlavor?: MetricsFlavor;
  /** `full`: every family of a real vLLM page, not only the modelled ones (see `RenderMetricsOptions`). Default `modelled`. */
  readonly metricsExposition?: 'modelled' | 'full';
  /**
   * Lean mode for large fleets: serve the same rendered `/metrics` page for this long (ms of real
   * time) instead of rendering one per scrape. Default 0 (render every scrape).
   */
  readonly metricsCacheMs?: number;
  /** Publish KV events over ZeroMQ (topic defaults to `kv@<podName>@<model>`). */
  readonly kvEvents?: Omit<KvEventPublisherOptions, 'topic'> & { readonly topic?: string };
  /** Output tokens when a chat request sets no limit (default 256; completions use vLLM's 16). */
  readonly defaultChatMaxTokens?: number;
  /** Largest accepted body in bytes (default 64 MiB). */
  readonly bodyLimit?: number;
  /** Unix time in seconds, for `created` fields and `lora_requests_info` (default from the system clock). */
  readonly unixTime?: () => number;
}

/**
 * Where a started server listens.
 * @public
 * @category Server
 */
export interface ModelServerAddress {
  /** Host. */
  readonly host: string;
  /** Port. */
  readonly port: number;
  /** `http://host:port`. */
  readonly url: string;
}

const defaultUnixTime = (): number => (performance.timeOrigin + systemClock.now()) / 1000;

/**
 * A simulated vLLM pod on `node:http`: OpenAI `/v1/completions` and `/v1/chat/completions`
 * (JSON and SSE, usage with cached tokens), `/v1/models` (base model and LoRA adapters),
 * `/metrics`, `/tokenize`, `/v1/completions/render` and `/v1/chat/completions/render` (token ids),
 * `/health`, plus an optional ZeroMQ KV-event publisher. A client that disconnects aborts its
 * request, which frees its KV blocks.
 * @public
 * @category Server
 */
export class ModelServer {
  /** The engine behind the server. */
  readonly engine: EngineModel;
  /** The KV-event publisher, when configured. */
  readonly kvPublisher: KvEventPublisher | undefined;
  /** Pod name. */
  readonly podName: string;
  /** KV-event topic (`kv@<pod>@<model>` unless configured), when publishing. */
  readonly kvTopic: string | undefined;
  readonly #server: Server;
  #cachedMetrics: { readonly at: number; readonly page: Buffer } | undefined;
  readonly #options: ModelServerOptions;
  readonly #unixTime: () => number;
  #nextId = 0;

  constructor(options: ModelServerOptions = {}) {
    this.#options = options;
    this.podName = options.podName ?? 'sim-0';
    this.#unixTime = options.unixTime ?? defaultUnixTime;
    const clock = scaledClock(systemClock, options.timeScale ?? 1);
    this.engine = new EngineModel({ ...options, clock, timestamp: options.timestamp ?? this.#unixTime });
    const kv = options.kvEvents;
    this.kvTopic = kv === undefined ? undefined : (kv.topic ?? `kv@${this.podName}@${this.engine.config.modelName}`);
    this.kvPublisher = kv === undefined || this.kvTopic === undefined ? undefined : new KvEventPublisher(this.engine, { ...kv, topic: this.kvTopic });
    this.#server = createServer((req, res) => { this.#handle(req, res); });
    this.#server.keepAliveTimeout = 65_000;
  }

  /** Starts listening (port 0 = ephemeral) and the KV publisher. */
  async listen(port = 0, host = '127.0.0.1'): Promise<ModelServerAddress> {
    await this.kvPublisher?.start();
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const addr = this.#server.address() as AddressInfo;
    const h = addr.address.includes(':') ? `[${addr.address}]` : addr.address;
    return { host: addr.address, port: addr.port, url: `http://${h}:${addr.port}` };
  }

  /** Stops accepting connections, aborts live requests and closes the publisher. */
  async close(): Promise<void> {
    for (const r of this.engine.liveRequests()) this.engine.abort(r.id);
    this.engine.close();
    const closed = new Promise<void>((resolve) => this.#server.close(() => { resolve(); }));
    this.#server.closeAllConnections();
    await closed;
    await this.kvPublisher?.close();
  }

  #metricsPage(): Buffer {
    const now = systemClock.now();
    const cached = this.#cachedMetrics;
    if (cached !== undefined && now - cached.at < (this.#options.metricsCacheMs ?? 0)) return cached.page;
    const page = Buffer.from(renderMetrics(this.engine, { flavor: this.#options.metricsFlavor ?? 'vllm', unixSeconds: this.#unixTime(), exposition: this.#options.metricsExposition ?? 'modelled' }));
    this.#cachedMetrics = { at: now, page };
    return page;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('x-simulator-pod', this.podName);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = `${req.method ?? 'GET'} ${path}`;
    const run = async (): Promise<void> => {
      switch (route) {
        case 'GET /health':
          res.writeHead(200).end();
          return;
        case 'GET /metrics':
          {
            // With a Content-Length, as vLLM's server sends it (not chunked).
            const page = this.#metricsPage();
            res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': page.length });
            res.end(page);
          }
          return;
        case 'GET /v1/models':
          sendJson(res, 200, this.#models());
          return;
        case 'POST /tokenize': {
          const { tokens } = parsePromptBody(await readBody(req, this.#bodyLimit));
          sendJson(res, 200, { count: tokens.length, max_model_len: this.engine.config.maxModelLen, tokens: [...tokens], token_strs: null });
          return;
        }
        case 'POST /v1/completions/render':
        case 'POST /v1/chat/completions/render': {
          const { model, tokens } = parsePromptBody(await readBody(req, this.#bodyLimit));
          sendJson(res, 200, { model: model ?? this.engine.config.modelName, token_ids: [...tokens], num_tokens: tokens.length });
          return;
        }
        case 'POST /v1/completions':
          await this.#generate('completions', req, res);
          return;
        case 'POST /v1/chat/completions':
          await this.#generate('chat', req, res);
          return;
        default:
          throw new HttpError(404, `no route for ${route}`, 'NotFoundError');
      }
    };
    run().catch((err: unknown) => {
      sendError(res, err instanceof HttpError ? err : new HttpError(500, err instanceof Error ? err.message : String(err), 'InternalServerError'));
    });
  }

  get #bodyLimit(): number {
    return this.#options.bodyLimit ?? 64 * 1024 * 1024;
  }

  #models(): unknown {
    const c = this.engine.config;
    const created = Math.floor(this.#unixTime());
    const card = (id: string, parent: string | null): unknown => ({ id, object: 'model', created, owned_by: 'vllm', root: id, parent, max_model_len: c.maxModelLen });
    return { object: 'list', data: [card(c.modelName, null), ...c.loraAdapters.map((a) => card(a, c.modelName))] };
  }

  async #generate(api: GenerationApi, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const c = this.engine.config;
    const g = parseGeneration(api, await readBody(req, this.#bodyLimit), api === 'chat' ? (this.#options.defaultChatMaxTokens ?? 256) : 16);
    if (g.model !== c.modelName && !c.loraAdapters.includes(g.model)) {
      throw new HttpError(404, `The model \`${g.model}\` does not exist.`, 'NotFoundError', 'model');
    }
    if (g.promptTokens.length + g.maxTokens > c.maxModelLen) {
      throw new HttpError(400, `This model's maximum context length is ${c.maxModelLen} tokens. However, you requested ${g.promptTokens.length + g.maxTokens} tokens (${g.promptTokens.length} in the messages, ${g.maxTokens} in the completion).`, 'BadRequestError', 'max_tokens');
    }
    const id = `${api === 'chat' ? 'chatcmpl' : 'cmpl'}-${this.podName}-${++this.#nextId}`;
    const ctx: GenerationContext = {
      engine: this.engine,
      parsed: g,
      head: { id, created: Math.floor(this.#unixTime()), model: g.model },
      adapter: g.model === c.modelName ? undefined : g.model,
    };
    await (g.stream ? streamGeneration(ctx, res) : collectGeneration(ctx, res));
  }
}
