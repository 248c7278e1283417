import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { onPrimaryPort, setDataParallelHeader } from './data-parallel.js';
import { createDisaggProfileHandler, type DisaggProfileHandler } from './disagg-profile-handler.js';

const REMOVED = 'was removed from pd-profile-handler upstream: add a prefix-based-pd-decider (its nonCachedTokens is the old threshold) and name it in deciderPluginName';

const parametersSchema = z.strictObject({
  /** Name of the decode profile (the primary). */
  decodeProfile: z.string().default('decode').transform((v) => (v === '' ? 'decode' : v)),
  /** Name of the prefill profile (llm-d's empty string means the default). */
  prefillProfile: z.string().default('prefill').transform((v) => (v === '' ? 'prefill' : v)),
  /** Instance name of the stage decider that says when to run prefill. */
  deciderPluginName: z.string().min(1).default('prefix-based-pd-decider'),
  /**
   * llm-d's data-parallel workaround, deprecated upstream: when set, the decode pick is sent to this
   * port of its host and named in `x-data-parallel-host-port` (see `data-parallel-profile-handler`).
   * 0 = off.
   */
  primaryPort: z.number().int().min(0).max(65535).default(0),
  /** Parameters of the first pd-profile-handler, rejected with a migration hint. */
  threshold: z.unknown().refine((v) => v === undefined, { error: REMOVED }).optional(),
  hashBlockSize: z.unknown().refine((v) => v === undefined, { error: REMOVED }).optional(),
});

/**
 * `pd-profile-handler`: llm-d's deprecated name for prefill/decode disaggregation, kept so that
 * older configs load. It is `disagg-profile-handler` with decode first, prefill run when the
 * decider named `deciderPluginName` accepts the decode pick, and no encode stage. Like upstream it
 * sets no prefill header itself (only `x-data-parallel-host-port` with `primaryPort`): list
 * `disagg-headers-handler` (or its old name `prefill-header-handler`)
 * among the plugins for `x-prefiller-host-port`, or move to `disagg-profile-handler`.
 * @public
 * @category Built-in plugins
 */
export const pdProfileHandlerPlugin = definePlugin({
  type: 'pd-profile-handler',
  description: 'Deprecated llm-d alias: prefill/decode disaggregation, decode first, one decider (headers from disagg-headers-handler).',
  parameters: parametersSchema,
  notActedOn: {
    prefixPluginType: 'deprecated; llm-d never used it either',
    prefixPluginName: 'deprecated; llm-d never used it either',
    prefixMatchInfoProducerName: 'the decider reads its own producer\'s match info',
  },
  create: (p, ctx): DisaggProfileHandler => {
    const disagg = createDisaggProfileHandler(
      { profiles: { decode: p.decodeProfile, prefill: p.prefillProfile, encode: 'encode' }, deciders: { prefill: p.deciderPluginName, encode: undefined }, stageOrder: 'decode-first' },
      ctx,
    );
    const handler: DisaggProfileHandler = {
      type: 'pd-profile-handler',
      name: ctx.name,
      validate: (profiles) => disagg.validate?.(profiles),
      pickProfiles: (c, request, profiles, results) => disagg.pickProfiles(c, request, profiles, results),
      processResults: (c, request, results) => disagg.processResults(c, request, results),
      decisionType: (result) => disagg.decisionType(result),
    };
    if (p.primaryPort === 0) return handler;
    return {
      ...handler,
      processResults: (c, request, results) => onPrimaryPort(disagg.processResults(c, request, results), p.decodeProfile, p.primaryPort),
      preRequest(_c, _request, result, headers) {
        setDataParallelHeader(result, p.decodeProfile, headers);
      },
    };
  },
});
