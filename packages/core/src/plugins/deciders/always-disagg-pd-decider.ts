import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { StageDecider } from '../../scheduling/plugins.js';

/**
 * `always-disagg-pd-decider`: always runs the prefill stage.
 * @public
 * @category Built-in plugins
 */
export const alwaysDisaggPdDeciderPlugin = definePlugin({
  type: 'always-disagg-pd-decider',
  description: 'Always disaggregates prefill.',
  parameters: z.strictObject({}),
  create: (_p, ctx): StageDecider => ({ type: 'always-disagg-pd-decider', name: ctx.name, shouldRun: () => true }),
});
