import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { arrayScorer } from './scorer-base.js';

/**
 * `lora-affinity-scorer`: prefers endpoints that already serve the request's target model
 * (a LoRA adapter). Target active → 1; else a free adapter slot (`active + waiting < max`) → 0.8,
 * checked before the waiting list; else target waiting → 0.6; else 0.
 * @public
 * @category Built-in plugins
 */
export const loraAffinityScorerPlugin = definePlugin({
  type: 'lora-affinity-scorer',
  description: 'Adapter already loaded > free adapter slot > adapter queued > none.',
  parameters: z.strictObject({}),
  create: (_p, ctx) =>
    arrayScorer('lora-affinity-scorer', ctx.name, (_c, request, endpoints, out) => {
      const model = request.targetModel;
      for (let i = 0; i < endpoints.length; i++) {
        const m = endpoints[i]?.metrics;
        if (m === undefined) out[i] = 0;
        else if (m.activeModels.includes(model)) out[i] = 1;
        else if (m.activeModels.length + m.waitingModels.length < m.maxActiveModels) out[i] = 0.8;
        else if (m.waitingModels.includes(model)) out[i] = 0.6;
        else out[i] = 0;
      }
    }),
});
