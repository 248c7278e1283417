/*
 * Test-only sink that records what a stream sends. Not exported from the package.
 */
import type { ProcessingResponse } from '../wire/messages.js';
import type { ExtProcSink } from '../stream/types.js';

/** Records replies, closes and failures. */
export class CollectSink implements ExtProcSink {
  readonly replies: ProcessingResponse[] = [];
  closed = 0;
  failures: unknown[] = [];

  send(message: ProcessingResponse): void {
    this.replies.push(message);
  }

  close(): void {
    this.closed++;
  }

  fail(error: unknown): void {
    this.failures.push(error);
  }
}
