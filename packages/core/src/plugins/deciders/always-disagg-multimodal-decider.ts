import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { StageDecider } from '../../scheduling/plugins.js';

/**
 * `always-disagg-multimodal-decider`: runs the encode stage when a chat request carries image,
 * video or audio parts.
 * @public
 * @category Built-in plugins
 */
export const alwaysDisaggMultimodalDeciderPlugin = definePlugin({
  type: 'always-disagg-multimodal-decider',
  description: 'Runs the encode stage for chat requests with media parts.',
  parameters: z.strictObject({}),
  create: (_p, ctx): StageDecider => ({
    type: 'always-disagg-multimodal-decider',
    name: ctx.name,
    shouldRun: (_c, request) => {
      const prompt = request.request.prompt;
      return prompt.kind === 'chat' && prompt.messages.some((m) => (m.media?.length ?? 0) > 0);
    },
  }),
});
