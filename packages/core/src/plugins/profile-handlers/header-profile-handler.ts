import { z } from 'zod';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { definePlugin } from '../../registry/types.js';
import { schedulingResult } from '../../scheduling/scheduling-result.js';
import type { ProfileHandler, SchedulingProfile } from '../../scheduling/plugins.js';

/**
 * Type of llm-d's header-selected profile handler. @public
 * @category Built-in plugins
 */
export const HEADER_PROFILE_HANDLER = 'header-profile-handler';

/**
 * Parameters of `header-profile-handler` (llm-d's): `headerName` (default `EPP-Profile`, matched
 * trimmed and lower-cased) and `defaultProfile` (default `decode`), the profile of requests
 * without the header.
 * @public
 * @category Built-in plugins
 */
export const headerProfileHandlerParameters = z
  .strictObject({
    headerName: z
      .string()
      .default('EPP-Profile')
      .transform((h) => h.trim().toLowerCase()),
    defaultProfile: z.string().default('decode'),
  })
  .prefault({});

/**
 * Creates a handler that runs one profile per request: the only one when the config has one,
 * else the profile the (trimmed) `headerName` header names, or `defaultProfile` when the header is
 * absent or blank. A name that matches no profile runs none, and the request fails with 429
 * (`REJECTED_SATURATED`), as llm-d fails it in `ProcessResults`.
 * @public
 * @category Built-in plugins
 */
export function createHeaderProfileHandler(name: string, headerName: string, defaultProfile: string): ProfileHandler {
  return {
    type: HEADER_PROFILE_HANDLER,
    name,
    pickProfiles(_ctx, request, profiles, results) {
      if (results.size > 0) return [];
      if (profiles.size === 1) return [...profiles.values()];
      const chosen = (request.request.headers[headerName] ?? '').trim();
      const profile: SchedulingProfile | undefined = profiles.get(chosen === '' ? defaultProfile : chosen);
      return profile === undefined ? [] : [profile];
    },
    processResults(_ctx, request, results) {
      const entry = results.entries().next();
      if (entry.done === true) {
        const chosen = (request.request.headers[headerName] ?? '').trim();
        throw new SwitchyardError(
          'REJECTED_SATURATED',
          chosen === '' ? `no scheduling profile "${defaultProfile}" (the default of ${HEADER_PROFILE_HANDLER} "${name}") for a request without the ${headerName} header` : `no scheduling profile configured for ${headerName} header value "${chosen}"`,
        );
      }
      const [profileName, result] = entry.value;
      if (result === null) throw new SwitchyardError('REJECTED_SATURATED', `profile "${profileName}" found no endpoint`);
      return schedulingResult(results, profileName);
    },
  };
}

/**
 * `header-profile-handler` (llm-d, alpha): the request header chooses the one profile that runs.
 * @public
 * @category Built-in plugins
 */
export const headerProfileHandlerPlugin = definePlugin({
  type: HEADER_PROFILE_HANDLER,
  description: 'Runs the one profile a request header names (default profile without the header).',
  parameters: headerProfileHandlerParameters,
  create: (p, ctx) => createHeaderProfileHandler(ctx.name, p.headerName, p.defaultProfile),
});
