import { z } from 'zod';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { definePlugin } from '../../registry/types.js';
import { schedulingResult } from '../../scheduling/scheduling-result.js';
import type { ProfileHandler, SchedulingProfile } from '../../scheduling/plugins.js';

/**
 * Type name of the single-profile handler, used by the config loader's defaulting. @public
 * @category Built-in plugins
 */
export const SINGLE_PROFILE_HANDLER = 'single-profile-handler';

/**
 * Creates a handler that runs the configuration's only profile once and makes it primary. A
 * failed profile fails the request (the loader rejects this handler with more than one profile).
 * @public
 * @category Built-in plugins
 */
export function createSingleProfileHandler(name = SINGLE_PROFILE_HANDLER): ProfileHandler {
  let lastProfiles: ReadonlyMap<string, SchedulingProfile> | undefined;
  let lastList: readonly SchedulingProfile[] = [];
  return {
    type: SINGLE_PROFILE_HANDLER,
    name,
    pickProfiles(_ctx, _request, profiles, results) {
      if (results.size > 0) return [];
      if (profiles !== lastProfiles) {
        lastProfiles = profiles;
        lastList = [...profiles.values()];
      }
      return lastList;
    },
    processResults(_ctx, _request, results) {
      if (results.size !== 1) {
        throw new SwitchyardError('INTERNAL', `${SINGLE_PROFILE_HANDLER} "${name}" expects exactly one profile result, got ${results.size}`);
      }
      const [profileName, result] = results.entries().next().value as [string, unknown];
      if (result === null) throw new SwitchyardError('REJECTED_SATURATED', `profile "${profileName}" found no endpoint`);
      return schedulingResult(results, profileName);
    },
  };
}

/**
 * `single-profile-handler`: runs the one profile; its pick is the destination.
 * @public
 * @category Built-in plugins
 */
export const singleProfileHandlerPlugin = definePlugin({
  type: SINGLE_PROFILE_HANDLER,
  description: 'Runs the only profile once.',
  parameters: z.strictObject({}),
  create: (_p, ctx) => createSingleProfileHandler(ctx.name),
});
