import { z } from 'zod';
import { definePlugin, type PluginDefinition } from '../../registry/types.js';
import type { Plugin, RequestLifecycle } from '../../scheduling/plugins.js';
import { setDisaggHeaders } from './disagg-profile-handler.js';

const parametersSchema = z.strictObject({
  /** Profile whose first target is the prefill pod. */
  prefillProfile: z.string().min(1).default('prefill'),
  /** Profile whose targets are the encoders. */
  encodeProfile: z.string().min(1).default('encode'),
});

type Parameters = z.infer<typeof parametersSchema>;

function headersHandler(type: string): PluginDefinition<Parameters> {
  return definePlugin({
    type,
    description: 'Deprecated llm-d pre-request plugin: sets x-prefiller-host-port and x-encoder-hosts-ports (disagg-profile-handler does it itself).',
    parameters: parametersSchema,
    create: (p, ctx): Plugin & RequestLifecycle => ({
      type,
      name: ctx.name,
      preRequest(_c, _request, result, headers) {
        setDisaggHeaders(result, p.prefillProfile, p.encodeProfile, headers);
      },
    }),
  });
}

/**
 * `disagg-headers-handler`: llm-d's deprecated pre-request plugin that tells the decode pod's
 * sidecar where prefill and encode run (`x-prefiller-host-port` from the first target of
 * `prefillProfile`, `x-encoder-hosts-ports` from every target of `encodeProfile`, when those
 * profiles ran). Kept for configs that pair it with `pd-profile-handler`;
 * `disagg-profile-handler` sets the same headers itself.
 * @public
 * @category Built-in plugins
 */
export const disaggHeadersHandlerPlugin = headersHandler('disagg-headers-handler');

/**
 * `prefill-header-handler`: the older name of {@link disaggHeadersHandlerPlugin}, same behaviour.
 * @public
 * @category Built-in plugins
 */
export const prefillHeaderHandlerPlugin = headersHandler('prefill-header-handler');
