import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createGatewayHandler, type GatewayHandler } from '../gateway/handler.js';
import { DEFAULT_INFERENCE_PATHS, type GatewayOptions } from '../gateway/options.js';
import { OPERATIONAL_PATHS } from '../gateway/ops.js';

/**
 * Options of {@link switchyardFastify}.
 * @public
 */
export interface SwitchyardFastifyOptions {
  /** A gateway, or options to create one (then closed with the Fastify instance). */
  readonly gateway: GatewayHandler | GatewayOptions;
  /** Inference paths to register (must match the gateway's). @default DEFAULT_INFERENCE_PATHS */
  readonly inferencePaths?: readonly string[];
  /** Register `/metrics`, `/healthz`, `/readyz` and `/v1/models`. @default true */
  readonly operationalRoutes?: boolean;
}

/**
 * Fastify plugin: registers the gateway's routes in the plugin's encapsulation context and hands
 * each request to the gateway (`reply.hijack()`, then the raw node request and response). Bodies
 * are not parsed by Fastify: a content-type parser scoped to this plugin leaves the stream to the
 * gateway, so the gateway's body limit and error contract apply.
 * @example
 * ```ts
 * const app = Fastify();
 * await app.register(switchyardFastify, { gateway: { scheduler: picker, endpoints: pool } });
 * await app.listen({ port: 8080 });
 * ```
 * @public
 */
export const switchyardFastify: FastifyPluginAsync<SwitchyardFastifyOptions> = async (fastify, options) => {
  const owned = typeof options.gateway !== 'function';
  const gateway = typeof options.gateway === 'function' ? options.gateway : createGatewayHandler(options.gateway);
  fastify.removeAllContentTypeParsers();
  // Leave the body stream unread: the gateway reads it with its own limit.
  fastify.addContentTypeParser('*', (_request, _payload, done) => {
    done(null, undefined);
  });
  // Each route hands the gateway its own path: under a `prefix`, `req.url` carries the prefix,
  // which the gateway (and the model server) know nothing about.
  const serveAt = (path: string) => async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack();
    await gateway.handle(request.raw, reply.raw, { path });
  };
  for (const path of options.inferencePaths ?? DEFAULT_INFERENCE_PATHS) fastify.post(path, serveAt(path));
  if (options.operationalRoutes ?? true) for (const path of OPERATIONAL_PATHS) if (gateway.owns('GET', path)) fastify.get(path, serveAt(path));
  if (owned) {
    fastify.addHook('onClose', async () => {
      await gateway.close();
    });
  }
  await Promise.resolve();
};
