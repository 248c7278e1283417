import { z } from 'zod';
import { joinHostPort } from '../../endpoints/address.js';
import type { Endpoint } from '../../endpoints/types.js';
import { DATA_PARALLEL_HEADER } from '../../headers/names.js';
import { definePlugin } from '../../registry/types.js';
import { schedulingResult } from '../../scheduling/scheduling-result.js';
import type { ProfileHandler, ProfileResult, RequestLifecycle, SchedulingResult, ScoredEndpoint } from '../../scheduling/plugins.js';
import { createSingleProfileHandler } from './single-profile-handler.js';

/** Each stand-in on a primary port → the data-parallel rank it stands for. */
const ranks = new WeakMap<Endpoint, Endpoint>();

/** A profile result whose targets were readdressed; the scores stay the profile's own. */
class ReaddressedResult implements ProfileResult {
  readonly #inner: ProfileResult;

  constructor(
    inner: ProfileResult,
    readonly targets: readonly Endpoint[],
  ) {
    this.#inner = inner;
  }

  get scored(): readonly ScoredEndpoint[] {
    return this.#inner.scored;
  }
}

/**
 * `result` with the targets of profile `profileName` sent to `port` on their host (llm-d's
 * data-parallel workaround: the pod's sidecar forwards to the rank named in
 * `x-data-parallel-host-port`). The stand-ins keep the ranks' ids, so in-flight accounting,
 * circuit breaking and prefix learning stay per rank.
 * @internal
 */
export function onPrimaryPort(result: SchedulingResult, profileName: string, port: number): SchedulingResult {
  const profile = result.profileResults.get(profileName);
  if (profile === undefined || profile === null) return result;
  const standIns = profile.targets.map((rank) => {
    const standIn: Endpoint = { ...rank, port, address: joinHostPort(rank.ip, port) };
    ranks.set(standIn, rank);
    return standIn;
  });
  const results = new Map(result.profileResults);
  results.set(profileName, new ReaddressedResult(profile, standIns));
  return schedulingResult(results, result.primaryProfileName);
}

/**
 * Sets `x-data-parallel-host-port` to the rank the first target of `profileName` stands for, when
 * {@link onPrimaryPort} readdressed it.
 * @internal
 */
export function setDataParallelHeader(result: SchedulingResult, profileName: string, headers: Record<string, string>): void {
  const target = result.profileResults.get(profileName)?.targets[0];
  const rank = target === undefined ? undefined : ranks.get(target);
  if (rank !== undefined) headers[DATA_PARALLEL_HEADER] = joinHostPort(rank.ip, rank.port);
}

/**
 * `data-parallel-profile-handler`: llm-d's handler for vLLM data-parallel pods behind gateways that
 * cannot route to each rank's port (deprecated upstream: not needed with Istio ≥ 1.28.1). It runs
 * the only profile, sends the request to `primaryPort` on the chosen rank's host and names the
 * rank in `x-data-parallel-host-port`. Gateways that reach every port (Switchyard's own HTTP
 * gateway does) should list the ranks as endpoints and use the default handler instead.
 * @public
 * @category Built-in plugins
 */
export const dataParallelProfileHandlerPlugin = definePlugin({
  type: 'data-parallel-profile-handler',
  description: "Deprecated llm-d handler: one profile, request sent to the pod's primaryPort, rank in x-data-parallel-host-port.",
  parameters: z.strictObject({
    /** Port every request is sent to on the chosen rank's host; 0 keeps the rank's own port (no rewrite, no header). */
    primaryPort: z.number().int().min(0).max(65535).default(8000),
  }),
  create: (p, ctx): ProfileHandler & RequestLifecycle => {
    const single = createSingleProfileHandler(ctx.name);
    return {
      type: 'data-parallel-profile-handler',
      name: ctx.name,
      validate(profiles) {
        if (profiles.size !== 1) throw new Error(`needs exactly one scheduling profile, got ${profiles.size}`);
      },
      pickProfiles: (c, request, profiles, results) => single.pickProfiles(c, request, profiles, results),
      processResults(c, request, results) {
        const result = single.processResults(c, request, results);
        return p.primaryPort === 0 ? result : onPrimaryPort(result, result.primaryProfileName, p.primaryPort);
      },
      preRequest(_c, _request, result, headers) {
        setDataParallelHeader(result, result.primaryProfileName, headers);
      },
    };
  },
});
