import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes, attributeKey, prefixMatchAttribute, type AttributeKey } from '../../scheduling/attributes.js';
import type { CycleContext, DataProducer, RequestLifecycle, SchedulingResult } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';

/**
 * Type of llm-d's P2P KV-cache source selector. @public
 * @category Built-in plugins
 */
export const P2P_SOURCE_PRODUCER = 'p2p-source-producer';

/**
 * Request header naming the endpoint to pull KV blocks from (llm-d's P2P KV transfer). @public
 * @category Built-in plugins
 */
export const KV_CACHE_SOURCE_HEADER = 'x-kv-cache-source-host-port';

/**
 * Parameters of `p2p-source-producer`, with llm-d's names and defaults. @public
 * @category Built-in plugins
 */
export const p2pSourceProducerParameters = z
  .strictObject({
    prefixMatchInfoProducerName: z.string().default(''),
    minCachedTokenDelta: z.number().int().min(1).default(1),
    prefillProfileName: z.string().default('prefill'),
  })
  .prefault({});

/**
 * Attribute a `p2p-source-producer` instance writes: the best KV source endpoint of the request,
 * `best-match/<instance name>` as llm-d names the data key.
 * @public
 * @category Built-in plugins
 */
export function bestMatchAttribute(producerName: string = P2P_SOURCE_PRODUCER): AttributeKey<Endpoint> {
  return attributeKey(`best-match/${producerName}`);
}

/** FNV-32a over the UTF-8 bytes of `text`, as Go's hash/fnv hashes the request id. */
function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h >>> 0;
}

/**
 * llm-d's choice of KV source among `endpoints`: the candidates holding within one block of the
 * most cached tokens, weighted `1 / (1 + waiting queue)`, one drawn deterministically by
 * FNV-32a(request id) / 2³² over the cumulative weights. Undefined when nobody holds anything.
 * @public
 * @category Built-in plugins
 */
export function chooseKvSource(requestId: string, endpoints: readonly Endpoint[], cachedTokens: (e: Endpoint) => number, blockSizeTokens: number): Endpoint | undefined {
  let max = 0;
  for (const e of endpoints) max = Math.max(max, cachedTokens(e));
  if (max <= 0) return undefined;
  const near = endpoints.filter((e) => cachedTokens(e) >= max - blockSizeTokens);
  const weights = near.map((e) => 1 / (1 + (e.metrics?.waitingQueueSize ?? 0)));
  const total = weights.reduce((a, b) => a + b, 0);
  const target = (fnv32a(requestId) / 2 ** 32) * total;
  let sum = 0;
  for (let i = 0; i < near.length; i++) {
    sum += weights[i] as number;
    if (target < sum) return near[i];
  }
  return near[near.length - 1];
}

type Params = z.output<typeof p2pSourceProducerParameters>;

class P2pSource implements DataProducer, RequestLifecycle {
  readonly type = P2P_SOURCE_PRODUCER;
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
  readonly #match: ReturnType<typeof prefixMatchAttribute>;
  readonly #best: AttributeKey<Endpoint>;

  constructor(readonly name: string, private readonly p: Params) {
    this.#match = prefixMatchAttribute(p.prefixMatchInfoProducerName);
    this.#best = bestMatchAttribute(name);
    this.consumes = [this.#match.name];
    this.produces = [this.#best.name];
  }

  #cached(request: SchedulingRequest, e: Endpoint): number {
    const m = request.attributes.get(this.#match)?.get(e.id);
    return m === undefined ? 0 : m.cachedBlocks * m.blockSizeTokens;
  }

  produce(_ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): void {
    const infos = request.attributes.get(this.#match);
    if (infos === undefined) return;
    let blockSize = 0;
    for (const m of infos.values()) blockSize = Math.max(blockSize, m.blockSizeTokens);
    const best = chooseKvSource(request.id, endpoints, (e) => this.#cached(request, e), blockSize);
    if (best !== undefined) request.attributes.set(this.#best, best);
  }

  preRequest(_ctx: CycleContext, request: SchedulingRequest, result: SchedulingResult, headers: Record<string, string>): void {
    // A client's copy of the header never reaches the server: the adapters drop it with the
    // other sidecar-trusted headers (SIDECAR_TRUSTED_HEADERS), as llm-d deletes it here.
    const best = request.attributes.get(this.#best);
    const computing = result.profileResults.get(this.p.prefillProfileName)?.targets[0] ?? result.profileResults.get(result.primaryProfileName)?.targets[0];
    if (best === undefined || computing === undefined || best.id === computing.id) return;
    if (this.#cached(request, best) - this.#cached(request, computing) >= this.p.minCachedTokenDelta) headers[KV_CACHE_SOURCE_HEADER] = best.address;
  }
}

/**
 * `p2p-source-producer` (llm-d, alpha): picks the endpoint whose KV cache holds most of the
 * prompt (`best-match/<name>`), and when the endpoint that will compute the prefill (the
 * `prefillProfileName` profile's pick, else the primary) holds at least `minCachedTokenDelta`
 * tokens fewer, tells it where to pull the blocks from with `x-kv-cache-source-host-port`.
 * Cached tokens are the prefix producer's unweighted cached blocks × block size (llm-d prefers
 * the CPU-tier count when the precise index reports tiers; Switchyard's match info has none).
 * @public
 * @category Built-in plugins
 */
export const p2pSourceProducerPlugin = definePlugin({
  type: P2P_SOURCE_PRODUCER,
  description: 'Data producer: best KV-cache source endpoint; sets x-kv-cache-source-host-port for P2P KV transfer.',
  parameters: p2pSourceProducerParameters,
  consumes: [Attributes.prefixMatch.name],
  create: (p, ctx): P2pSource => new P2pSource(ctx.name, p),
});
