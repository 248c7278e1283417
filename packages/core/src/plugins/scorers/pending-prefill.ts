import type { SchedulingRequest } from '../../scheduling/request.js';

/**
 * Prefill tokens this gateway has sent to each endpoint that have not produced a first token yet.
 * A pod's scraped gauges lag by a scrape interval and say nothing about how long the prompts in its
 * queue are; these counts are exact and change at the instant of each pick, so a burst of cold
 * requests spreads instead of landing on the pod that looked idlest at the last scrape.
 * Memory: one entry per request between its pick and its first byte (or completion), one per
 * endpoint with something pending.
 * @internal
 */
export class PendingPrefill {
  readonly #byEndpoint = new Map<string, number>();
  readonly #byRequest = new WeakMap<SchedulingRequest, { readonly endpointId: string; readonly tokens: number }>();

  /** Tokens pending on `endpointId`. */
  tokens(endpointId: string): number {
    return this.#byEndpoint.get(endpointId) ?? 0;
  }

  /** Records that `request` will prefill `tokens` on `endpointId` (a request is counted once). */
  add(request: SchedulingRequest, endpointId: string, tokens: number): void {
    if (this.#byRequest.has(request) || tokens <= 0) return;
    this.#byRequest.set(request, { endpointId, tokens });
    this.#byEndpoint.set(endpointId, this.tokens(endpointId) + tokens);
  }

  /** Forgets `request`'s pending tokens (first byte, failure or completion); idempotent. */
  settle(request: SchedulingRequest): void {
    const entry = this.#byRequest.get(request);
    if (entry === undefined) return;
    this.#byRequest.delete(request);
    const left = this.tokens(entry.endpointId) - entry.tokens;
    if (left > 0.5) this.#byEndpoint.set(entry.endpointId, left);
    else this.#byEndpoint.delete(entry.endpointId);
  }
}
