import type { Endpoint, Usage } from '@switchyard/core';
import type { UpstreamFailureKind } from './upstream-errors.js';

// The results of an attempt are class instances, not object literals: V8 may pretenure a
// literal's allocation site (allocate its objects straight into the old generation), and an old
// object keeps the young ones it references (usage, errors) alive through every scavenge until
// the next full GC. The spread that used to add `attempts` to the last result was promoted at
// about 220 bytes per request. Each result carries its attempt number from the start, so the
// forward's result is the last attempt's result rather than a copy.

/** The whole response was relayed. */
export class OkAttempt {
  readonly kind = 'ok' as const;
  constructor(
    readonly endpoint: Endpoint,
    readonly status: number,
    readonly usage: Usage | undefined,
    readonly attempts: number,
  ) {}
}

/** Failed before any byte reached the client. */
export class FailedAttempt {
  readonly kind = 'failed' as const;
  constructor(
    readonly endpoint: Endpoint,
    readonly failure: UpstreamFailureKind,
    readonly error: unknown,
    readonly attempts: number,
  ) {}
}

/** Failed after the response started; the client response was terminated. */
export class BrokenAttempt {
  readonly kind = 'broken' as const;
  constructor(
    readonly endpoint: Endpoint,
    readonly status: number,
    readonly failure: UpstreamFailureKind,
    readonly error: unknown,
    readonly attempts: number,
  ) {}
}

/** Aborted by us (the client left, shutdown, eviction). */
export class AbortedAttempt {
  readonly kind = 'aborted' as const;
  constructor(
    readonly endpoint: Endpoint,
    readonly headersSent: boolean,
    readonly attempts: number,
  ) {}
}
