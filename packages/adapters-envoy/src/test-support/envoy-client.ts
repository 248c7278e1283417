/*
 * Test-only: an Envoy-emulating ext_proc client over real gRPC. It speaks the same protos the
 * server loads, sends what Envoy sends in FULL_DUPLEX_STREAMED mode, and records every reply.
 * Not exported from the package.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';
import type { ProcessingRequest, ProcessingResponse } from '../wire/messages.js';

const PROTO_DIR = fileURLToPath(new URL('../../proto/', import.meta.url));

type ClientCtor = new (address: string, creds: grpc.ChannelCredentials, options?: grpc.ChannelOptions) => grpc.Client;

function loadClients(): { ExternalProcessor: ClientCtor; Health: ClientCtor } {
  const def = protoLoader.loadSync(['envoy/service/ext_proc/v3/external_processor.proto', 'grpc/health/v1/health.proto'], {
    includeDirs: [PROTO_DIR],
    keepCase: true,
    oneofs: true,
    defaults: false,
    enums: Number,
    longs: Number,
  });
  const pkg = grpc.loadPackageDefinition(def) as unknown as {
    envoy: { service: { ext_proc: { v3: { ExternalProcessor: ClientCtor } } } };
    grpc: { health: { v1: { Health: ClientCtor } } };
  };
  return { ExternalProcessor: pkg.envoy.service.ext_proc.v3.ExternalProcessor, Health: pkg.grpc.health.v1.Health };
}

/** How a stream ended, from the client's point of view. */
export interface StreamEnd {
  readonly code: number;
  readonly details: string;
}

interface Waiter {
  readonly count: number;
  readonly resolve: () => void;
}

/** One emulated ext_proc stream (one HTTP request through Envoy). */
export class EmulatedStream {
  readonly replies: ProcessingResponse[] = [];
  readonly ended: Promise<StreamEnd>;
  #waiters: Waiter[] = [];
  #done = false;

  constructor(readonly call: grpc.ClientDuplexStream<ProcessingRequest, ProcessingResponse>) {
    call.on('data', (m: ProcessingResponse) => {
      this.replies.push(m);
      this.#wake();
    });
    this.ended = new Promise((resolve) => {
      call.on('status', (s: grpc.StatusObject) => {
        this.#done = true;
        this.#wake();
        resolve({ code: s.code, details: s.details });
      });
      call.on('error', () => undefined); // status carries the outcome
    });
  }

  send(message: ProcessingRequest): void {
    this.call.write(message);
  }

  halfClose(): void {
    this.call.end();
  }

  cancel(): void {
    this.call.cancel();
  }

  /** Resolves once `count` replies have arrived (or the stream ended). */
  async waitFor(count: number): Promise<ProcessingResponse[]> {
    if (this.replies.length < count && !this.#done) {
      await new Promise<void>((resolve) => this.#waiters.push({ count, resolve }));
    }
    return this.replies.slice(0, count);
  }

  #wake(): void {
    const keep: Waiter[] = [];
    for (const w of this.#waiters) {
      if (this.replies.length >= w.count || this.#done) w.resolve();
      else keep.push(w);
    }
    this.#waiters = keep;
  }
}

/** A proxy connection to one endpoint-picker server (one HTTP/2 connection, many streams). */
export class EnvoyEmulator {
  readonly #extProc: grpc.Client;
  readonly #health: grpc.Client;

  constructor(port: number, credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure(), options: grpc.ChannelOptions = {}) {
    const { ExternalProcessor, Health } = loadClients();
    this.#extProc = new ExternalProcessor(`127.0.0.1:${port}`, credentials, options);
    this.#health = new Health(`127.0.0.1:${port}`, credentials, options);
  }

  /** Opens a Process stream. */
  open(): EmulatedStream {
    const client = this.#extProc as unknown as { Process: () => grpc.ClientDuplexStream<ProcessingRequest, ProcessingResponse> };
    return new EmulatedStream(client.Process());
  }

  /** `grpc.health.v1.Health/Check` → status number, or the gRPC error. */
  check(service: string): Promise<number> {
    const client = this.#health as unknown as {
      Check: (req: { service: string }, cb: (err: grpc.ServiceError | null, res?: { status?: number }) => void) => void;
    };
    return new Promise((resolve, reject) => {
      client.Check({ service }, (err, res) => {
        if (err !== null) reject(err);
        else resolve(res?.status ?? 0);
      });
    });
  }

  /** `Health/Watch`: returns the stream of statuses. */
  watch(service: string): grpc.ClientReadableStream<{ status?: number }> {
    const client = this.#health as unknown as { Watch: (req: { service: string }) => grpc.ClientReadableStream<{ status?: number }> };
    return client.Watch({ service });
  }

  close(): void {
    this.#extProc.close();
    this.#health.close();
  }
}
