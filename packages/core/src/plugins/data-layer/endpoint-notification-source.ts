import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';

/**
 * Type of llm-d's endpoint add/remove notification source. @public
 * @category Built-in plugins
 */
export const ENDPOINT_NOTIFICATION_SOURCE = 'endpoint-notification-source';

/**
 * `endpoint-notification-source`: llm-d's data-layer source that tells extractors (e.g. the
 * precise prefix producer) when endpoints join or leave. In Switchyard the `EndpointPool` emits
 * those events to every subscriber, so the plugin takes no parameters and only has to exist for
 * `dataLayer.sources[].pluginRef` to resolve.
 * @public
 * @category Built-in plugins
 */
export const endpointNotificationSourcePlugin = definePlugin({
  type: ENDPOINT_NOTIFICATION_SOURCE,
  description: 'Data-layer source: endpoint add/remove notifications (served by the EndpointPool).',
  parameters: z.strictObject({}),
  create: (_p, ctx): Plugin => ({ type: ENDPOINT_NOTIFICATION_SOURCE, name: ctx.name }),
});
