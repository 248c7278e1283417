import { z } from 'zod';
import { joinHostPort } from '../../endpoints/address.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { ENCODERS_HEADER, PREFILLER_HEADER } from '../../headers/names.js';
import { definePlugin, type PluginFactoryContext } from '../../registry/types.js';
import { schedulingResult } from '../../scheduling/scheduling-result.js';
import { Attributes } from '../../scheduling/attributes.js';
import type { Plugin, ProfileHandler, RequestLifecycle, SchedulingProfile, SchedulingResult, StageDecider } from '../../scheduling/plugins.js';

/**
 * Which stages a disaggregated decision used (label of `disagg_decision_total`).
 * @public
 * @category Built-in plugins
 */
export type DisaggDecisionType = 'decode-only' | 'prefill-decode' | 'encode-decode' | 'encode-prefill-decode';

/**
 * A profile handler that can classify its results for metrics.
 * @public
 * @category Built-in plugins
 */
export interface DisaggProfileHandler extends ProfileHandler, RequestLifecycle {
  /** Which stages produced a result. */
  decisionType(result: SchedulingResult): DisaggDecisionType;
}

/** A profile name; llm-d's empty string means the stage's default name. */
const profileName = (fallback: string) => z.string().default(fallback).transform((v) => (v === '' ? fallback : v));
/** A decider reference; llm-d's empty string means "stage off", as an absent one does. */
const deciderRef = z.string().optional().transform((v) => (v === '' ? undefined : v));

/**
 * llm-d's spellings of the stage order: case-insensitive, `-` and `_` ignored, `decode` and
 * `prefill` alone allowed.
 */
const stageOrderSchema = z
  .string()
  .default('decode-first')
  .transform((v, ctx) => {
    const key = v.toLowerCase().replace(/[-_]/g, '');
    if (key === '' || key === 'decodefirst' || key === 'decode') return 'decode-first' as const;
    if (key === 'prefillfirst' || key === 'prefill') return 'prefill-first' as const;
    ctx.addIssue({ code: 'custom', message: `expected decode-first or prefill-first (any case, - or _ optional), got ${JSON.stringify(v)}` });
    return z.NEVER;
  });

/** The legacy flat parameters llm-d still loads, when the document uses no nested field. */
const FLAT_KEYS = ['decodeProfile', 'prefillProfile', 'encodeProfile', 'prefillDeciderPluginName', 'encodeDeciderPluginName', 'deciderPluginName'] as const;

/**
 * llm-d's legacy flat schema moved into the nested one. A document mixing both is left as is,
 * so the strict schema names the flat field (llm-d rejects the mix too).
 */
function nestFlatParameters(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const r = raw as Record<string, unknown>;
  if (!FLAT_KEYS.some((k) => k in r) || 'profiles' in r || 'deciders' in r) return raw;
  const { decodeProfile, prefillProfile, encodeProfile, prefillDeciderPluginName, encodeDeciderPluginName, deciderPluginName, ...rest } = r;
  const defined = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const prefillDecider = prefillDeciderPluginName === undefined || prefillDeciderPluginName === '' ? deciderPluginName : prefillDeciderPluginName;
  return {
    ...rest,
    profiles: defined({ decode: decodeProfile, prefill: prefillProfile, encode: encodeProfile }),
    deciders: defined({ prefill: prefillDecider, encode: encodeDeciderPluginName }),
  };
}

const nestedSchema = z
  .strictObject({
    /** Profile names of the stages. */
    profiles: z
      .strictObject({
        decode: profileName('decode'),
        prefill: profileName('prefill'),
        encode: profileName('encode'),
      })
      .default({ decode: 'decode', prefill: 'prefill', encode: 'encode' }),
    /** Names of the StageDecider plugins; an unset decider turns that stage off. */
    deciders: z.strictObject({ prefill: deciderRef, encode: deciderRef }).default({ prefill: undefined, encode: undefined }),
    /** `decode-first` (default) or `prefill-first` (prefill always runs; no prefill decider). */
    stageOrder: stageOrderSchema,
  })
  .superRefine((p, ctx) => {
    if (p.stageOrder === 'prefill-first' && p.deciders.prefill !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['deciders', 'prefill'], message: 'a prefill decider is not allowed with stageOrder prefill-first' });
    }
  });

const parametersSchema = z.preprocess(nestFlatParameters, nestedSchema);

/**
 * Sets `x-prefiller-host-port` from the first target of profile `prefillProfile` and
 * `x-encoder-hosts-ports` from every target of `encodeProfile`, when those stages ran.
 */
export function setDisaggHeaders(result: SchedulingResult, prefillProfile: string, encodeProfile: string, headers: Record<string, string>): void {
  const prefill = result.profileResults.get(prefillProfile)?.targets[0];
  if (prefill !== undefined) headers[PREFILLER_HEADER] = joinHostPort(prefill.ip, prefill.port);
  const encoders = result.profileResults.get(encodeProfile)?.targets;
  if (encoders !== undefined && encoders.length > 0) headers[ENCODERS_HEADER] = encoders.map((e) => joinHostPort(e.ip, e.port)).join(',');
}

function asDecider(plugin: Plugin | undefined, ref: string): StageDecider {
  if (plugin === undefined) throw new SwitchyardError('CONFIG_INVALID', `decider "${ref}" is not a configured plugin`);
  if (typeof (plugin as Partial<StageDecider>).shouldRun !== 'function') {
    throw new SwitchyardError('CONFIG_INVALID', `decider "${ref}" (type ${plugin.type}) is not a stage decider`);
  }
  return plugin as StageDecider;
}

/**
 * `disagg-profile-handler`: prefill/decode (and encode) disaggregation. Decode runs first and is
 * the primary; if it fails the request fails. Then the encode stage runs when its decider
 * accepts the decode pick, and the prefill stage when its decider does (after the decode pick is
 * published as the `peer-endpoint` attribute). A stage without a decider is off. Before
 * forwarding it sets `x-prefiller-host-port` (prefill pick) and `x-encoder-hosts-ports` (all
 * encode picks) for the decode pod's sidecar.
 * @public
 * @category Built-in plugins
 */
export const disaggProfileHandlerPlugin = definePlugin({
  type: 'disagg-profile-handler',
  description: 'Prefill/decode/encode disaggregation: decode first, deciders for the other stages.',
  parameters: parametersSchema,
  create: (p, ctx): DisaggProfileHandler => createDisaggProfileHandler(p, ctx),
});

/** Parameters of `disagg-profile-handler`, defaults applied. */
export type DisaggParameters = z.infer<typeof parametersSchema>;

/** Builds the handler behind `disagg-profile-handler` (and the deprecated `pd-profile-handler`). */
export function createDisaggProfileHandler(p: DisaggParameters, ctx: PluginFactoryContext): DisaggProfileHandler {
  const { decode: dn, prefill: pn, encode: en } = p.profiles;
  const prefillDecider = p.deciders.prefill === undefined ? undefined : asDecider(ctx.lookup(p.deciders.prefill), p.deciders.prefill);
  const encodeDecider = p.deciders.encode === undefined ? undefined : asDecider(ctx.lookup(p.deciders.encode), p.deciders.encode);
  const prefillFirst = p.stageOrder === 'prefill-first';
  const prefillOn = prefillFirst || prefillDecider !== undefined;
  const get = (profiles: ReadonlyMap<string, SchedulingProfile>, name: string): SchedulingProfile[] => {
    const profile = profiles.get(name);
    if (profile === undefined) throw new SwitchyardError('INTERNAL', `disagg-profile-handler: profile "${name}" is not configured`);
    return [profile];
  };
  return {
    type: 'disagg-profile-handler',
    name: ctx.name,
    validate(profiles) {
      const needed = [dn, ...(prefillOn ? [pn] : []), ...(encodeDecider !== undefined ? [en] : [])];
      const missing = needed.filter((n) => !profiles.has(n));
      if (missing.length > 0) throw new Error(`needs scheduling profile(s) ${missing.map((n) => `"${n}"`).join(', ')}`);
    },
    pickProfiles(c, request, profiles, results) {
      if (prefillFirst && !results.has(pn)) return get(profiles, pn);
      if (!results.has(dn)) return get(profiles, dn);
      const decode = results.get(dn);
      const pick = decode?.targets[0];
      if (pick === undefined) return [];
      if (encodeDecider !== undefined && !results.has(en) && (prefillFirst || !results.has(pn)) && encodeDecider.shouldRun(c, request, pick)) {
        return get(profiles, en);
      }
      if (!prefillFirst && prefillDecider !== undefined && !results.has(pn)) {
        request.attributes.set(Attributes.peerEndpoint, pick.id);
        if (prefillDecider.shouldRun(c, request, pick)) return get(profiles, pn);
      }
      return [];
    },
    processResults(_c, _r, results) {
      const decode = results.get(dn);
      if (decode === undefined || decode === null) throw new SwitchyardError('REJECTED_SATURATED', `decode profile "${dn}" found no endpoint`);
      return schedulingResult(results, dn);
    },
    preRequest(_c, _r, result, headers) {
      setDisaggHeaders(result, pn, en, headers);
    },
    decisionType(result) {
      const hasPrefill = (result.profileResults.get(pn) ?? null) !== null;
      const hasEncode = (result.profileResults.get(en) ?? null) !== null;
      return hasEncode ? (hasPrefill ? 'encode-prefill-decode' : 'encode-decode') : hasPrefill ? 'prefill-decode' : 'decode-only';
    },
  };
}
