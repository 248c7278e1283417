import type { ServerHttp2Stream } from 'node:http2';
import type { HealthState } from '../health.js';
import type { ExtProcCalls } from '../ext-proc-calls.js';
import type { ProcessingRequest, ProcessingResponse } from '../../wire/messages.js';
import { GrpcServerCall, GrpcStatus } from './call.js';
import { GrpcFramingError, GrpcMessageDecoder } from './frames.js';

/** A method's message codec, as a grpc-js method definition carries it (built-in or proto-loader). */
export interface MethodCodec<Req, Res> {
  readonly path: string;
  readonly requestDeserialize: (bytes: Buffer) => Req;
  readonly responseSerialize: (value: Res) => Buffer;
}

/** Serves one call on a stream whose headers were checked. */
export type Route = (stream: ServerHttp2Stream, call: GrpcServerCall) => void;

interface HealthRequest {
  service?: string;
}
interface HealthResponse {
  status: number;
}

/** Health requests are a service name: anything bigger is not one. */
const MAX_HEALTH_REQUEST_BYTES = 64 * 1024;

function framingStatus(error: unknown): number {
  if (error instanceof GrpcFramingError) return error.reason === 'too-large' ? GrpcStatus.RESOURCE_EXHAUSTED : GrpcStatus.UNIMPLEMENTED;
  return GrpcStatus.INTERNAL;
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error ? error.message : fallback;
}

/**
 * `ExternalProcessor/Process`: a bidirectional stream. Bytes from the proxy are cut into messages
 * and handed to the shared call logic; when the proxy stops reading our replies (the send buffer
 * is full), reading stops too, so HTTP/2 flow control pushes back on the proxy instead of
 * replies piling up here.
 */
export function processRoute(calls: ExtProcCalls, codec: MethodCodec<ProcessingRequest, ProcessingResponse>, maxMessageBytes: number): Route {
  return (stream, call) => {
    const decoder = new GrpcMessageDecoder(maxMessageBytes);
    let finished = false;
    let paused = false;
    const resume = (): void => {
      paused = false;
      stream.resume();
    };
    const events = calls.open({
      write(message) {
        if (call.write(codec.responseSerialize(message)) || paused) return;
        paused = true;
        stream.pause();
        stream.once('drain', resume);
      },
      end() {
        finished = true;
        call.end(GrpcStatus.OK);
      },
      fail(details) {
        finished = true;
        call.end(GrpcStatus.INTERNAL, details);
      },
    });
    // The client's grpc-timeout elapsed: the call already ended DEADLINE_EXCEEDED; stop the pick.
    call.onExpired = () => {
      if (finished) return;
      finished = true;
      events.cancelled(GrpcStatus.DEADLINE_EXCEEDED);
    };
    /** Ends the call with a transport status the proxy caused (framing, decoding). */
    const abort = (status: number, error: unknown): void => {
      finished = true;
      call.end(status, messageOf(error, 'bad request stream'));
      events.failed(error, status);
    };
    stream.on('data', (chunk: Buffer) => {
      if (finished) return;
      let messages: Buffer[];
      try {
        messages = decoder.push(chunk);
      } catch (error) {
        abort(framingStatus(error), error);
        return;
      }
      for (const bytes of messages) {
        let message: ProcessingRequest;
        try {
          message = codec.requestDeserialize(bytes);
        } catch (error) {
          abort(GrpcStatus.INTERNAL, new Error(`cannot decode a ProcessingRequest: ${messageOf(error, 'bad message')}`));
          return;
        }
        events.message(message);
        // An immediate response ended the call: the rest is not read.
        if (call.ended) return;
      }
    });
    stream.on('end', () => {
      if (finished) return;
      // Node ends the readable side of a reset stream too, and only then reports the reset
      // ('close' with a non-zero rstCode): decide after that has had its turn, so a reset is a
      // cancel, not a half-close.
      setImmediate(() => {
        if (finished) return;
        if (stream.closed) {
          finished = true;
          events.cancelled();
          return;
        }
        if (!decoder.atBoundary) {
          abort(GrpcStatus.INTERNAL, new Error('the request stream ended inside a message'));
          return;
        }
        finished = true;
        events.halfClosed();
      });
    });
    stream.on('error', (error: Error) => {
      if (finished) return;
      finished = true;
      events.failed(error);
    });
    // RST_STREAM from the proxy, or its connection gone, before the call finished.
    stream.on('close', () => {
      if (finished) return;
      finished = true;
      events.cancelled();
    });
  };
}

/** Reads the single request message of a unary or server-streaming call, then runs `then`. */
function firstMessage<Req, Res>(stream: ServerHttp2Stream, call: GrpcServerCall, codec: MethodCodec<Req, Res>, then: (request: Req) => void): void {
  const decoder = new GrpcMessageDecoder(MAX_HEALTH_REQUEST_BYTES);
  let read = false;
  const fail = (status: number, message: string): void => {
    read = true;
    call.end(status, message);
  };
  stream.on('data', (chunk: Buffer) => {
    if (read) return;
    let first: Buffer | undefined;
    try {
      first = decoder.push(chunk)[0];
    } catch (error) {
      fail(framingStatus(error), messageOf(error, 'bad request'));
      return;
    }
    if (first === undefined) return;
    read = true;
    let request: Req;
    try {
      request = codec.requestDeserialize(first);
    } catch (error) {
      fail(GrpcStatus.INTERNAL, `cannot decode the request: ${messageOf(error, 'bad message')}`);
      return;
    }
    then(request);
  });
  stream.on('end', () => {
    if (!read) fail(GrpcStatus.INTERNAL, 'the call ended before its request message');
  });
  stream.on('error', () => undefined);
}

/** `grpc.health.v1.Health/Check`. */
export function checkRoute(health: HealthState, codec: MethodCodec<HealthRequest, HealthResponse>): Route {
  return (stream, call) => {
    firstMessage(stream, call, codec, (request) => {
      call.write(codec.responseSerialize({ status: health.statusOf(request.service ?? '') }));
      call.end(GrpcStatus.OK);
    });
  };
}

/**
 * `grpc.health.v1.Health/Watch`: the status now, then each change. `watchers` holds an ender per
 * open watch, for shutdown.
 */
export function watchRoute(health: HealthState, codec: MethodCodec<HealthRequest, HealthResponse>, watchers: Set<() => void>): Route {
  return (stream, call) => {
    firstMessage(stream, call, codec, (request) => {
      const service = request.service ?? '';
      let last = health.statusOf(service);
      call.write(codec.responseSerialize({ status: last }));
      const onChange = (): void => {
        const now = health.statusOf(service);
        if (now !== last) call.write(codec.responseSerialize({ status: (last = now) }));
      };
      const stop = (): void => {
        health.off('change', onChange);
        watchers.delete(end);
      };
      const end = (): void => {
        stop();
        call.end(GrpcStatus.OK);
      };
      health.on('change', onChange);
      watchers.add(end);
      stream.on('close', stop);
    });
  };
}
