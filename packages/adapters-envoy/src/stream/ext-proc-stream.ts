import {
  HeaderRecord,
  ROUTING_METADATA_NAMESPACE,
  SwitchyardError,
  isSwitchyardError,
  localResponse,
  parseRequest,
  systemClock,
  type Clock,
  type Decision,
  type LocalResponse,
  type PickOptions,
  type RequestOutcome,
} from '@switchyard/core';
import { headerMapToRecord } from '../wire/headers.js';
import { immediateResponseFor, localImmediateResponse } from '../wire/immediate.js';
import type { ProcessingRequest, ProcessingResponse, WireStruct } from '../wire/messages.js';
import { structToJson } from '../wire/struct.js';
import { bodyChunkResponses, trailersResponse } from '../wire/responses.js';
import { forwardHeadersResponse } from './forward-headers.js';
import { pickHeaderOnly } from './header-only.js';
import { ResponsePhase, responseStatus, type ResponseEnd } from './response-phase.js';
import { readStreamMetadata, resolveServedEndpoint } from './stream-metadata.js';
import type { ExtProcSink, ExtProcStreamOptions } from './types.js';
import { resolveExtProcStreamOptions, type ResolvedExtProcStreamOptions } from './defaults.js';
import { RequestBodyBuffer, expectedBodyBytes } from './request-body.js';

/**
 * Where a stream is in the HTTP exchange it processes.
 * @public
 * @category Stream
 */
export type StreamPhase = 'request-headers' | 'request-body' | 'scheduling' | 'forwarded' | 'response' | 'done';

/**
 * The ext_proc conversation for one HTTP request in FULL_DUPLEX_STREAMED mode, independent of
 * gRPC: messages from the proxy go in through {@link ExtProcStream.receive}, replies come out of
 * the sink in the order headers → body → trailers for each direction.
 *
 * Request path: headers, then body chunks collected to end of stream into one buffer sized from the
 * Content-Length (`RequestBodyBuffer`: the body is held once while it arrives), the request is parsed and
 * scheduled (waiting in flow control while the stream stays open), then the header reply
 * (destination, Content-Length, `envoy.lb` metadata), the body as ≤ 62,000-byte chunks, and a
 * trailers reply when trailers ended the body. Response path: see `ResponsePhase` (stream/response-phase.ts). The
 * decision's lifecycle completes exactly once: at response end, on cancel, or on stream end/error.
 * @public
 * @category Stream
 */
export class ExtProcStream {
  readonly #sink: ExtProcSink;
  readonly #o: ResolvedExtProcStreamOptions;
  readonly #clock: Clock;
  /** Created when scheduling starts: most streams never need one after that. */
  #abort: AbortController | undefined;
  #phase: StreamPhase = 'request-headers';
  #headers: Record<string, string> = {};
  #path = '/';
  /** Created at the request headers, sized from their Content-Length when there is one. */
  #body: RequestBodyBuffer | undefined;
  #subsetHint: string[] | undefined;
  #served: string | undefined;
  /** An `envoy.lb` namespace arrived on some message (what the served verifier reports). */
  #lbMetadata = false;
  /** The `llm-d.routing` metadata namespace, when the proxy forwards it. */
  #routing: WireStruct | undefined;
  #decision: Decision | undefined;
  #response: ResponsePhase | undefined;
  #pending: ProcessingRequest[] = [];
  #work: Promise<void> = Promise.resolve();
  #completed = false;
  #shuttingDown = false;

  /**
   * @param sink - where replies go
   * @param options - resolved once by the server (`resolveExtProcStreamOptions`), else here
   * @throws SwitchyardError `CONFIG_INVALID` naming a bad option
   */
  constructor(sink: ExtProcSink, options: ExtProcStreamOptions) {
    this.#sink = sink;
    this.#o = resolveExtProcStreamOptions(options);
    this.#clock = options.clock ?? systemClock;
  }

  /** Current phase. */
  get phase(): StreamPhase {
    return this.#phase;
  }

  /** Resolves when no scheduling is in progress (for tests and graceful shutdown). */
  idle(): Promise<void> {
    return this.#work;
  }

  /** Handles one message from the proxy. Messages arriving while scheduling wait their turn. */
  receive(message: ProcessingRequest): void {
    if (this.#phase === 'scheduling') {
      this.#pending.push(message);
      return;
    }
    this.#dispatch(message);
  }

  /** The proxy cancelled the stream: abort scheduling, end the lifecycle as cancelled. */
  cancel(): void {
    if (this.#phase === 'scheduling') this.#abort?.abort(new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'the proxy cancelled the ext_proc stream'));
    this.#complete({ kind: 'cancelled' });
    this.#phase = 'done';
  }

  /** The proxy half-closed the stream. A request still scheduling is abandoned; an unfinished response counts as an error. */
  end(): void {
    if (this.#phase === 'scheduling') {
      this.cancel();
      return;
    }
    this.#complete({ kind: 'error' });
    this.#phase = 'done';
  }

  /** The transport failed. */
  error(error: unknown): void {
    if (this.#phase === 'scheduling') this.#abort?.abort(new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'the ext_proc stream failed', { cause: error }));
    this.#complete({ kind: 'error', error });
    this.#phase = 'done';
  }

  /** The server is shutting down: a request waiting for a decision is answered 503 `rejected-shutting-down`. */
  shutdown(): void {
    this.#shuttingDown = true;
    if (this.#phase === 'scheduling') this.#abort?.abort(SHUTTING_DOWN());
  }

  #dispatch(m: ProcessingRequest): void {
    if (this.#phase === 'done') return;
    // Metadata is re-read on every message, as the proxy may attach it to any of them.
    const meta = readStreamMetadata(m.metadata_context);
    if (meta.subsetHint !== undefined) this.#subsetHint = meta.subsetHint;
    if (meta.served !== undefined) this.#served = meta.served;
    if (meta.lbMetadata) this.#lbMetadata = true;
    if (meta.routing !== undefined) this.#routing = meta.routing;
    if (m.request_headers !== undefined) this.#onRequestHeaders(m.request_headers.headers, m.request_headers.end_of_stream === true);
    else if (m.request_body !== undefined) this.#onRequestBody(m.request_body.body, m.request_body.end_of_stream === true);
    else if (m.request_trailers !== undefined) this.#onRequestTrailers();
    else if (m.response_headers !== undefined) this.#onResponseHeaders(headerMapToRecord(m.response_headers.headers), m.response_headers.end_of_stream === true);
    else if (m.response_body !== undefined) this.#responseEnded(this.#responseOrEcho().body(m.response_body.body ?? EMPTY, m.response_body.end_of_stream === true));
    else if (m.response_trailers !== undefined) this.#responseEnded(this.#responseOrEcho().trailers());
  }

  #onRequestHeaders(map: Parameters<typeof headerMapToRecord>[0], endOfStream: boolean): void {
    this.#headers = headerMapToRecord(map);
    const path = this.#headers[':path'] ?? '/';
    const q = path.indexOf('?');
    this.#path = q === -1 ? path : path.slice(0, q);
    this.#phase = 'request-body';
    if (endOfStream) this.#routeHeaderOnly();
    else this.#body = new RequestBodyBuffer(expectedBodyBytes(this.#headers['content-length'], this.#o.maxBodyBytes));
  }

  /** A request without body (GET and friends) has nothing to schedule on: pick a ready endpoint. */
  #routeHeaderOnly(): void {
    if (this.#answerLocally()) return;
    const target = this.#shuttingDown ? undefined : pickHeaderOnly(this.#o.pool, this.#subsetHint, this.#o.random ?? Math.random);
    if (target === undefined) {
      this.#reject(this.#shuttingDown ? SHUTTING_DOWN() : new SwitchyardError('REJECTED_NO_ENDPOINTS', 'no ready endpoint for a request without body'));
      return;
    }
    this.#send(forwardHeadersResponse({ targets: [target], decisionHeaders: {}, requestHeaders: this.#headers, bodyLength: undefined, requestId: undefined, echo: this.#o.echoHeaders }));
    this.#phase = 'forwarded';
  }

  /** Lets the config's responders answer a body-less request; true when one did. */
  #answerLocally(): boolean {
    const responders = this.#o.responders;
    if (responders === undefined || responders.length === 0 || this.#shuttingDown) return false;
    let reply: LocalResponse | undefined;
    try {
      reply = localResponse(responders, { method: (this.#headers[':method'] ?? 'GET').toUpperCase(), path: this.#path }, this.#o.pool?.list() ?? []);
    } catch (error) {
      this.#reject(error);
      return true;
    }
    if (reply === undefined) return false;
    this.#phase = 'done';
    this.#sink.send(localImmediateResponse(reply));
    this.#sink.close();
    return true;
  }

  #onRequestBody(body: Uint8Array | undefined, endOfStream: boolean): void {
    if (this.#phase !== 'request-body' && this.#phase !== 'request-headers') return;
    if (body !== undefined && body.length > 0) {
      const collected = (this.#body ??= new RequestBodyBuffer(undefined));
      const max = this.#o.maxBodyBytes;
      if (collected.length + body.length > max) {
        this.#body = undefined;
        this.#reject(new SwitchyardError('PAYLOAD_TOO_LARGE', `request body exceeds ${max} bytes`));
        return;
      }
      collected.push(Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    }
    if (endOfStream) this.#schedule(false);
  }

  #onRequestTrailers(): void {
    // With trailers, the body ends at the trailers message rather than at an eos chunk.
    if (this.#phase === 'request-body' || this.#phase === 'request-headers') this.#schedule(true);
    else this.#send(trailersResponse('request'));
  }

  #schedule(trailers: boolean): void {
    const body = this.#body?.take() ?? EMPTY_BODY;
    this.#body = undefined;
    if (this.#shuttingDown) {
      this.#reject(SHUTTING_DOWN());
      return;
    }
    this.#phase = 'scheduling';
    this.#abort = new AbortController();
    this.#work = this.#pick(body, trailers, this.#abort.signal).catch((error: unknown) => {
      this.#failStream(error);
    });
  }

  async #pick(raw: Buffer, trailers: boolean, signal: AbortSignal): Promise<void> {
    const started = this.#clock.now();
    let decision: Decision;
    try {
      const parsers = this.#o.parsers;
      const parseOptions = { maxBodyBytes: this.#o.maxBodyBytes, ...(parsers === undefined ? {} : { parsers }) };
      const request = (this.#o.parse ?? parseRequest)({ path: this.#path, headers: this.#headers, body: raw }, parseOptions);
      const parsed = { startedAt: started, endedAt: this.#clock.now() };
      const options: { -readonly [K in keyof PickOptions]: PickOptions[K] } = { signal, trustClassificationHeaders: this.#o.trustClassificationHeaders, parsed };
      if (this.#subsetHint !== undefined) options.subsetHint = this.#subsetHint;
      if (this.#routing !== undefined) options.metadata = { [ROUTING_METADATA_NAMESPACE]: structToJson(this.#routing) };
      decision = await this.#o.scheduler.pick(request, options);
    } catch (error) {
      if (this.#phase === 'done') return; // cancelled: nobody is listening
      const reason: unknown = signal.reason;
      const shutdown = this.#shuttingDown && isSwitchyardError(reason) && reason.code === 'REJECTED_SHUTTING_DOWN';
      this.#reject(shutdown ? reason : error);
      return;
    }
    if (this.#phase === 'done') {
      // The proxy went away while we were deciding: release what the decision holds.
      decision.complete({ kind: 'cancelled' });
      return;
    }
    this.#decision = decision;
    this.#o.observer?.onDecision?.(decision, this.#clock.now() - started);
    decision.revoked?.addEventListener('abort', () => { this.#onRevoked(decision); }, { once: true });
    const targets = decision.targets ?? [decision.primary, ...decision.fallbacks];
    const echo = this.#o.echoHeaders;
    const scores = this.#o.emitEndpointScores ? primaryScores(decision) : undefined;
    this.#send(forwardHeadersResponse({ targets, decisionHeaders: decision.headers, requestHeaders: this.#headers, bodyLength: decision.body.length, requestId: decision.request.id, echo, scores }));
    for (const reply of bodyChunkResponses('request', decision.body, !trailers, this.#o.chunkBytes)) this.#send(reply);
    if (trailers) this.#send(trailersResponse('request'));
    this.#phase = 'forwarded';
    this.#drain();
  }

  #drain(): void {
    const pending = this.#pending;
    this.#pending = [];
    for (const m of pending) this.receive(m);
  }

  #onRevoked(decision: Decision): void {
    if (this.#phase === 'done' || this.#completed || this.#response?.done === true) return;
    const reason: unknown = decision.revoked?.reason;
    const error = isSwitchyardError(reason) ? reason : new SwitchyardError('EVICTED', 'request evicted by flow control');
    this.#reject(error);
  }

  #onResponseHeaders(headers: Record<string, string>, endOfStream: boolean): void {
    const d = this.#decision;
    const rewritten = d !== undefined && d.request.targetModel !== d.clientModel && d.clientModel !== '';
    // Response hooks run before the header reply goes out, so that they can add headers to it.
    let setHeaders: Readonly<Record<string, string>> = {};
    if (d !== undefined) {
      const added: Record<string, string> = Object.assign(new HeaderRecord(), d.responseHeaders);
      d.onResponseStart({
        endpoint: resolveServedEndpoint(this.#served, d, this.#o.pool),
        status: responseStatus(headers),
        at: this.#clock.now(),
        dataPlane: { lbMetadata: this.#lbMetadata, served: this.#served },
        responseHeaders: added,
      });
      setHeaders = added;
    }
    this.#response = new ResponsePhase(headers, {
      restore: rewritten ? { target: d.request.targetModel, client: d.clientModel } : undefined,
      requestedStream: d?.request.request.stream ?? false,
      setHeaders,
      chunkBytes: this.#o.chunkBytes,
      send: (m) => { this.#send(m); },
      onUsage: (usage) => d?.onUsage(usage),
      onBodyEnd: d?.onResponseBody === undefined ? undefined : (usage) => d.onResponseBody?.(usage),
      onChunk: d?.onResponseChunk === undefined ? undefined : (bytes) => d.onResponseChunk?.(bytes),
      onProcessing: d?.onResponseProcessing === undefined ? undefined : (ms) => d.onResponseProcessing?.(ms),
      clock: this.#clock,
    });
    this.#phase = 'response';
    if (endOfStream) this.#responseEnded(this.#response.endWithoutBody());
  }

  /** A body without headers first (the proxy skipped response headers): treat it as a 200 of unknown type. */
  #responseOrEcho(): ResponsePhase {
    if (this.#response === undefined) this.#onResponseHeaders({}, false);
    return this.#response as ResponsePhase;
  }

  #responseEnded(end: ResponseEnd | undefined): void {
    if (end === undefined) return;
    if (end.status >= 400) this.#complete({ kind: 'error', status: end.status });
    else this.#complete(end.usage === undefined ? { kind: 'success' } : { kind: 'success', usage: end.usage });
  }

  #reject(error: unknown): void {
    const reply = immediateResponseFor(error);
    if (reply === undefined) {
      this.#failStream(error);
      return;
    }
    this.#o.observer?.onRejected?.(error as SwitchyardError);
    this.#complete({ kind: 'error', error });
    this.#phase = 'done';
    this.#sink.send(reply);
    this.#sink.close();
  }

  #failStream(error: unknown): void {
    this.#o.observer?.onFailure?.(error);
    this.#complete({ kind: 'error', error });
    this.#phase = 'done';
    this.#sink.fail(error);
  }

  #send(message: ProcessingResponse): void {
    if (this.#phase !== 'done') this.#sink.send(message);
  }

  #complete(outcome: RequestOutcome): void {
    const d = this.#decision;
    if (d === undefined || this.#completed) return;
    this.#completed = true;
    d.complete(outcome);
    this.#o.observer?.onComplete?.(outcome);
  }
}

const EMPTY = new Uint8Array(0);
const EMPTY_BODY = Buffer.alloc(0);
const SHUTTING_DOWN = (): SwitchyardError => new SwitchyardError('REJECTED_SHUTTING_DOWN', 'the endpoint picker is shutting down');

/** Total score of each candidate of the decision's primary profile, by `ip:port`. */
function primaryScores(decision: Decision): ReadonlyMap<string, number> {
  const scored = decision.result.profileResults.get(decision.result.primaryProfileName)?.scored ?? [];
  return new Map(scored.map((s) => [s.endpoint.address, s.score]));
}
