import { createHash } from 'node:crypto';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { attributeKey, type AttributeKey } from '../../scheduling/attributes.js';
import type { CycleContext, DataProducer, RequestLifecycle, SchedulingResult } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';
import { EncoderCacheMetrics } from './encoder-cache-metrics.js';

/**
 * Type of llm-d's multimodal encoder-cache producer. @public
 * @category Built-in plugins
 */
export const MM_EMBEDDINGS_CACHE_PRODUCER = 'mm-embeddings-cache-producer';

/**
 * How many of a request's multimodal items (images, videos, audio) one endpoint's encoder cache
 * already holds.
 * @public
 * @category Built-in plugins
 */
export interface EncoderCacheMatch {
  /** Items of the request found in the endpoint's cache. */
  readonly matched: number;
  /** Distinct items of the request. */
  readonly total: number;
}

/**
 * Attribute a producer instance writes, `MultiModalEncoderCacheMatchInfoKey/<name>` as llm-d
 * names the data key: per endpoint id, the request's {@link EncoderCacheMatch}.
 * @public
 * @category Built-in plugins
 */
export function encoderCacheAttribute(producerName: string = MM_EMBEDDINGS_CACHE_PRODUCER): AttributeKey<ReadonlyMap<string, EncoderCacheMatch>> {
  return attributeKey(`MultiModalEncoderCacheMatchInfoKey/${producerName === '' ? MM_EMBEDDINGS_CACHE_PRODUCER : producerName}`);
}

/** Content part types that carry a media item, with the item's modality (the metrics' `modality` label). */
const MEDIA_TYPES: ReadonlyMap<string, string> = new Map([
  ['image_url', 'image'], ['input_image', 'image'], ['image', 'image'],
  ['video_url', 'video'], ['input_video', 'video'], ['video', 'video'],
  ['input_audio', 'audio'], ['audio_url', 'audio'],
]);

/** One distinct media item of a request: the hash that identifies it, and its modality. */
interface MediaItem {
  readonly hash: string;
  readonly modality: string;
}
const ITEM_BYTES = 2 * 1024 * 1024;

/**
 * Distinct multimodal items of a chat request's body, each identified by a hash of its part (the
 * URL or inline data), so the same image sent twice is one item, as llm-d deduplicates by hash.
 * @public
 * @category Built-in plugins
 */
export function multimodalItems(body: Readonly<Record<string, unknown>> | undefined): string[] {
  return mediaItems(body).map((i) => i.hash);
}

/** {@link multimodalItems} with each item's modality. */
function mediaItems(body: Readonly<Record<string, unknown>> | undefined): MediaItem[] {
  const messages = body?.['messages'] ?? body?.['input'];
  if (!Array.isArray(messages)) return [];
  const items = new Map<string, MediaItem>();
  for (const m of messages) {
    const content = (m as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      const type = (part as { type?: unknown } | null)?.type;
      const modality = typeof type === 'string' ? MEDIA_TYPES.get(type) : undefined;
      if (modality === undefined) continue;
      const hash = createHash('sha256').update(JSON.stringify(part)).digest('base64url');
      items.set(hash, { hash, modality });
    }
  }
  return [...items.values()];
}

/**
 * Parameters of `mm-embeddings-cache-producer` (llm-d's name and default; ≤ 0 means the
 * default). `cacheSizeInMB` is the name llm-d-router's own sample config uses for the same
 * setting (`deploy/config/epp-mm-embeddings-cache-config.yaml`), accepted as an alias.
 * @public
 * @category Built-in plugins
 */
export const mmEmbeddingsCacheProducerParameters = z
  .strictObject({ cacheSizeInMBPerServer: z.number().int().optional(), cacheSizeInMB: z.number().int().optional() })
  .refine((p) => p.cacheSizeInMBPerServer === undefined || p.cacheSizeInMB === undefined, { error: 'give cacheSizeInMBPerServer or cacheSizeInMB (the same setting), not both', path: ['cacheSizeInMB'] })
  .transform((p) => ({ cacheSizeInMBPerServer: p.cacheSizeInMBPerServer ?? p.cacheSizeInMB ?? 4096 }))
  .prefault({});

const itemsKey = attributeKey<readonly MediaItem[]>('mm-embeddings-items');

class EncoderCacheProducer implements DataProducer, RequestLifecycle {
  readonly type = MM_EMBEDDINGS_CACHE_PRODUCER;
  readonly consumes: readonly string[] = [];
  readonly produces: readonly string[];
  readonly #key: AttributeKey<ReadonlyMap<string, EncoderCacheMatch>>;
  // Per endpoint: item hashes in least-recently-used-first order (a Map keeps insertion order).
  readonly #caches = new Map<string, Map<string, true>>();
  readonly #capacity: number;
  readonly #onRemoved = (e: Endpoint): void => void this.#caches.delete(e.id);

  readonly #metrics: EncoderCacheMetrics | undefined;

  constructor(readonly name: string, sizeMb: number, private readonly pool: { on(e: 'removed', f: (e: Endpoint) => void): unknown; off(e: 'removed', f: (e: Endpoint) => void): unknown }, registry: Registry | undefined) {
    this.#metrics = registry === undefined ? undefined : new EncoderCacheMetrics(registry, MM_EMBEDDINGS_CACHE_PRODUCER, name);
    this.#key = encoderCacheAttribute(name);
    this.produces = [this.#key.name];
    this.#capacity = Math.max(1, Math.floor(((sizeMb > 0 ? sizeMb : 4096) * 1024 * 1024) / ITEM_BYTES));
    pool.on('removed', this.#onRemoved);
  }

  produce(_ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): void {
    const items = mediaItems(request.request.body);
    if (items.length === 0) return;
    request.attributes.set(itemsKey, items);
    const out = new Map<string, EncoderCacheMatch>();
    const metrics = this.#metrics;
    for (const e of endpoints) {
      const cache = this.#caches.get(e.id);
      let matched = 0;
      for (const item of items) {
        const hit = cache?.has(item.hash) === true;
        if (hit) matched++;
        if (metrics === undefined) continue;
        metrics.queried(item.modality);
        if (hit) metrics.hit(e.id, item.modality);
      }
      metrics?.candidate(matched, items.length);
      out.set(e.id, { matched, total: items.length });
    }
    request.attributes.set(this.#key, out);
  }

  preRequest(_ctx: CycleContext, request: SchedulingRequest, result: SchedulingResult): void {
    const items = request.attributes.get(itemsKey);
    const target = result.profileResults.get(result.primaryProfileName)?.targets[0];
    if (items === undefined || target === undefined) return;
    let cache = this.#caches.get(target.id);
    if (cache === undefined) {
      cache = new Map<string, true>();
      this.#caches.set(target.id, cache);
    }
    for (const { hash } of items) {
      cache.delete(hash);
      cache.set(hash, true);
      if (cache.size > this.#capacity) cache.delete(cache.keys().next().value as string);
    }
  }

  close(): void {
    this.pool.off('removed', this.#onRemoved);
  }
}

/**
 * `mm-embeddings-cache-producer` (llm-d): remembers which images, videos and audio clips each
 * endpoint encoded (an LRU of `cacheSizeInMBPerServer` / 2 MiB items per endpoint, filled after
 * each pick) and tells `mm-embeddings-cache-scorer` how many of a request's items each candidate
 * already holds, so repeated media go where their embeddings are cached.
 * @public
 * @category Built-in plugins
 */
export const mmEmbeddingsCacheProducerPlugin = definePlugin({
  type: MM_EMBEDDINGS_CACHE_PRODUCER,
  description: 'Multimodal encoder-cache affinity: which candidates already encoded the request\'s media items.',
  parameters: mmEmbeddingsCacheProducerParameters,
  produces: [encoderCacheAttribute().name],
  defaultProducerFor: [encoderCacheAttribute().name],
  create: (p, ctx) => new EncoderCacheProducer(ctx.name, p.cacheSizeInMBPerServer, ctx.pool, ctx.metrics),
});
