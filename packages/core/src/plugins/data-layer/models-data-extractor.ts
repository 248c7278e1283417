import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import type { EndpointPool } from '../../endpoints/pool.js';
import { definePlugin } from '../../registry/types.js';
import { attributeKey, type AttributeKey } from '../../scheduling/attributes.js';
import type { CycleContext, DataProducer, Plugin } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';

/**
 * Type of llm-d's models-list extractor. @public
 * @category Built-in plugins
 */
export const MODELS_DATA_EXTRACTOR = 'models-data-extractor';

/**
 * One entry of an endpoint's OpenAI models list (llm-d's `ModelData`): `parent` names the base
 * model of a LoRA adapter.
 * @public
 * @category Built-in plugins
 */
export interface ModelData {
  readonly id: string;
  readonly object?: string;
  readonly created?: number;
  readonly owned_by?: string;
  readonly parent?: string | null;
  readonly root?: string;
}

/**
 * The models of each endpoint, as a `models-data-extractor` publishes them to requests.
 * @public
 * @category Built-in plugins
 */
export interface ModelsView {
  /** Models `endpoint` reported in its latest list, undefined before its first list. */
  of(endpoint: Endpoint): readonly ModelData[] | undefined;
}

/**
 * Attribute a `models-data-extractor` instance publishes, `/v1/models/<instance name>` as llm-d
 * names the data key.
 * @public
 * @category Built-in plugins
 */
export function modelsAttribute(extractorName: string = MODELS_DATA_EXTRACTOR): AttributeKey<ModelsView> {
  return attributeKey(`/v1/models/${extractorName}`);
}

/**
 * The entries of an OpenAI models list body (`{ object: "list", data: [...] }`); entries without
 * a string `id` are skipped. Undefined when the body is not such a list.
 * @public
 * @category Built-in plugins
 */
export function parseModelsList(body: unknown): ModelData[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data)) return undefined;
  const out: ModelData[] = [];
  for (const item of data as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const m = item as Record<string, unknown>;
    if (typeof m['id'] !== 'string' || m['id'] === '') continue;
    out.push({
      id: m['id'],
      ...(typeof m['object'] === 'string' ? { object: m['object'] } : {}),
      ...(typeof m['created'] === 'number' ? { created: m['created'] } : {}),
      ...(typeof m['owned_by'] === 'string' ? { owned_by: m['owned_by'] } : {}),
      ...(typeof m['parent'] === 'string' || m['parent'] === null ? { parent: m['parent'] } : {}),
      ...(typeof m['root'] === 'string' ? { root: m['root'] } : {}),
    });
  }
  return out;
}

/**
 * A `models-data-extractor` instance: fed replies by a `models-data-source`, it keeps each
 * endpoint's latest models list and publishes the lists as a data producer.
 * @public
 * @category Built-in plugins
 */
export interface ModelsDataExtractor extends DataProducer, ModelsView {
  /** Reads one `/v1/models` reply of `endpoint` (a body that is not a list is ignored). */
  extract(endpoint: Endpoint, body: unknown): void;
}

/**
 * True when `p` is a {@link ModelsDataExtractor}. @public
 * @category Built-in plugins
 */
export function isModelsDataExtractor(p: Plugin): p is ModelsDataExtractor {
  return p.type === MODELS_DATA_EXTRACTOR && typeof (p as Partial<ModelsDataExtractor>).extract === 'function';
}

class ModelsListExtractor implements ModelsDataExtractor {
  readonly type = MODELS_DATA_EXTRACTOR;
  readonly produces: readonly string[];
  readonly consumes: readonly string[] = [];
  readonly #lists = new Map<string, readonly ModelData[]>();
  readonly #key: AttributeKey<ModelsView>;
  readonly #onRemoved = (e: Endpoint): void => void this.#lists.delete(e.id);

  constructor(readonly name: string, private readonly pool: EndpointPool) {
    this.#key = modelsAttribute(name);
    this.produces = [this.#key.name];
    // Lists of endpoints that left the pool are dropped, so the map stays as large as the pool.
    pool.on('removed', this.#onRemoved);
  }

  extract(endpoint: Endpoint, body: unknown): void {
    const list = parseModelsList(body);
    if (list !== undefined && this.pool.get(endpoint.id) !== undefined) this.#lists.set(endpoint.id, list);
  }

  of(endpoint: Endpoint): readonly ModelData[] | undefined {
    return this.#lists.get(endpoint.id);
  }

  produce(_ctx: CycleContext, request: SchedulingRequest): void {
    request.attributes.set(this.#key, this);
  }

  close(): void {
    this.pool.off('removed', this.#onRemoved);
  }
}

/**
 * `models-data-extractor` (llm-d): keeps each endpoint's `/v1/models` entries (`id`, `object`,
 * `created`, `owned_by`, `parent`) and publishes them as `/v1/models/<name>`. Wire it to a
 * `models-data-source` in `dataLayer.sources`. No parameters.
 * @public
 * @category Built-in plugins
 */
export const modelsDataExtractorPlugin = definePlugin({
  type: MODELS_DATA_EXTRACTOR,
  description: 'Data-layer extractor: each endpoint\'s /v1/models list.',
  parameters: z.strictObject({}).prefault({}),
  create: (_p, ctx): ModelsDataExtractor => new ModelsListExtractor(ctx.name, ctx.pool),
});
