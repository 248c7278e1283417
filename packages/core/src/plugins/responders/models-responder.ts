import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';
import { isModelsDataExtractor, MODELS_DATA_EXTRACTOR, type ModelData, type ModelsView } from '../data-layer/models-data-extractor.js';
import { MODELS_DATA_SOURCE } from '../data-layer/models-data-source.js';
import type { LocalResponse, RequestLine, Responder } from './responder.js';

/**
 * Type of llm-d's `/v1/models` responder. @public
 * @category Built-in plugins
 */
export const MODELS_RESPONDER = 'models-responder';

/**
 * The pool-wide models list: every model and adapter any endpoint reported, one entry per id
 * (the entry of the endpoint whose id sorts first wins), sorted by id, with the number of
 * endpoints that reported a list at all.
 * @public
 * @category Built-in plugins
 */
export function aggregateModels(view: ModelsView, endpoints: readonly Endpoint[]): { readonly data: readonly ModelData[]; readonly reported: number } {
  const ordered = [...endpoints].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byId = new Map<string, ModelData>();
  let reported = 0;
  for (const e of ordered) {
    const list = view.of(e);
    if (list === undefined) continue; // not polled yet
    reported++;
    for (const m of list) if (!byId.has(m.id)) byId.set(m.id, m);
  }
  const data = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { data, reported };
}

/**
 * `models-responder` (llm-d): answers `GET /v1/models` (trailing slash allowed) from the lists
 * `models-data-extractor` collected on every endpoint, so adapters loaded on one pod appear in
 * the reply whichever pod would have been asked. Before any endpoint reported a list the reply
 * is 503 (`no model data collected yet from any endpoint`), so clients retry rather than cache an
 * empty list. Listing it creates `models-data-source` and `models-data-extractor` when the
 * config has none; it reads the extractor named `models-data-extractor`. No parameters.
 * @public
 * @category Built-in plugins
 */
export const modelsResponderPlugin = definePlugin({
  type: MODELS_RESPONDER,
  description: 'Answers GET /v1/models with the models and adapters of every endpoint.',
  parameters: z.strictObject({}).prefault({}),
  requires: [MODELS_DATA_SOURCE, MODELS_DATA_EXTRACTOR],
  create: (_p, ctx): Responder => ({
    type: MODELS_RESPONDER,
    name: ctx.name,
    respond(request: RequestLine, endpoints: readonly Endpoint[]): LocalResponse | undefined {
      if (request.method !== 'GET') return undefined;
      const path = request.path.endsWith('/') ? request.path.slice(0, -1) : request.path;
      if (path !== '/v1/models') return undefined;
      const extractor: Plugin | undefined = ctx.lookup(MODELS_DATA_EXTRACTOR);
      const view = extractor !== undefined && isModelsDataExtractor(extractor) ? extractor : undefined;
      const { data, reported } = view === undefined ? { data: [], reported: 0 } : aggregateModels(view, endpoints);
      if (reported === 0) throw new SwitchyardError('REJECTED_NO_ENDPOINTS', 'no model data collected yet from any endpoint');
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ object: 'list', data }) };
    },
  }),
});
