/**
 * Why the precise index skipped (part of) an event.
 * - `unknown-endpoint`: events for an endpoint that is not in the pool.
 * - `unknown-parent`: BlockStored whose parent block was never stored (missed events).
 * - `unknown-block`: BlockRemoved for a block the endpoint does not hold on that tier.
 * - `token-mismatch`: BlockStored whose token count is not blocks × block size.
 * - `skipped-group`: blocks of a non-full-attention KV group (sliding window, Mamba).
 * - `overflow`: an endpoint exceeded `maxBlocksPerEndpoint` and was cleared.
 * @public
 */
export type KvIngestProblem = 'unknown-endpoint' | 'unknown-parent' | 'unknown-block' | 'token-mismatch' | 'skipped-group' | 'overflow';

/**
 * Receives what ingestion did, for metrics and logs. All members optional.
 * @public
 */
export interface KvIngestObserver {
  /** Events of one type applied for an endpoint, with the number of blocks they named. */
  applied?(endpointId: string, type: 'BlockStored' | 'BlockRemoved' | 'AllBlocksCleared', events: number, blocks: number): void;
  /** Something was skipped. */
  problem?(cause: KvIngestProblem, endpointId: string, detail: string): void;
}

/**
 * Where a batch came from, when the transport knows more than the payload.
 * @public
 */
export interface KvBatchSource {
  /** Model named by the publisher's topic (`kv@<pod>@<model>`), used when no model name is configured. */
  readonly model?: string;
}
