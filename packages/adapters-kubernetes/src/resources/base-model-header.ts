import { z } from 'zod';
import { definePlugin, type Plugin, type PluginPack, type RequestLifecycle } from '@switchyard/core';
import { BASE_MODEL_HEADER, type BaseModelMap } from './base-model-map.js';

/**
 * Plugin type of {@link baseModelHeaderPack}. @public
 * @category Resource watches
 */
export const BASE_MODEL_HEADER_PLUGIN = 'base-model-header';

/**
 * A plugin pack whose `base-model-header` plugin sets `x-gateway-base-model-name` on every
 * scheduled request, from `map`, as IPP's base-model extractor does: the base model of the
 * request's `model` (itself for a base model, its base for a LoRA adapter), empty when unknown.
 * The pack adds the plugin to every config, so the header follows the ConfigMaps live.
 * @public
 * @category Resource watches
 */
export function baseModelHeaderPack(map: BaseModelMap): PluginPack {
  const plugin = definePlugin({
    type: BASE_MODEL_HEADER_PLUGIN,
    description: 'Sets x-gateway-base-model-name from the IPP model-mapping ConfigMaps (Kubernetes discovery).',
    parameters: z.strictObject({}),
    create: (_p, ctx): Plugin & RequestLifecycle => ({
      type: BASE_MODEL_HEADER_PLUGIN,
      name: ctx.name,
      preRequest(_c, request, _result, headers) {
        headers[BASE_MODEL_HEADER] = map.baseModelOf(request.request.model);
      },
    }),
  });
  return { name: '@switchyard/kubernetes', plugins: [plugin], defaultTypes: () => [BASE_MODEL_HEADER_PLUGIN] };
}
