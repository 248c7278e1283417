import { Attributes, definePlugin, type Endpoint, type PluginDefinition, type PrefixMatchInfo, type Scorer, arrayScorer } from '@switchyard/core';
import { z } from 'zod';
import { matchInfoConsumes, readMatchInfo } from './attributes.js';

/**
 * Type name of llm-d's L-metric scorer. @public
 * @category Plugins
 */
export const LMETRIC_SCORER = 'lmetric-scorer';

/**
 * Parameters of `lmetric-scorer` (llm-d names): the prefix producer whose match info it reads,
 * and `inFlightLoadProducerName`, accepted and not acted on (Switchyard keeps one in-flight load
 * per picker, which it reads).
 * @public
 * @category Plugins
 */
export const lmetricScorerParameters = z.strictObject({
  /** Read the match info of this producer instead of the shared attribute. */
  prefixMatchInfoProducerName: z.string().optional(),
});

/**
 * The L-metric cost of one endpoint: the prompt tokens it would have to prefill (`(total −
 * clamp(match, 0, total)) × blockSize`, block size 1 when unknown) times its decode batch
 * (`in-flight requests + 1`); undefined without match info or for an empty prompt.
 * @public
 * @category Plugins
 */
export function lmetricCost(info: PrefixMatchInfo | undefined, inFlightRequests: number): number | undefined {
  if (info === undefined || info.totalBlocks <= 0) return undefined;
  const matched = Math.min(info.totalBlocks, Math.max(0, info.matchBlocks));
  const blockSize = info.blockSizeTokens > 0 ? info.blockSizeTokens : 1;
  return (info.totalBlocks - matched) * blockSize * (Math.max(0, inFlightRequests) + 1);
}

/**
 * Creates an `lmetric-scorer`: min-max of {@link lmetricCost} over the candidates that have a
 * cost, lower cost better (`(max − c)/(max − min)`, 1 for all when equal); an endpoint without
 * match info scores 0.
 * @public
 * @category Plugins
 */
export function createLmetricScorer(name: string, producerName?: string): Scorer {
  return arrayScorer(LMETRIC_SCORER, name, (_c, request, endpoints, out) => {
    const info = readMatchInfo(request, producerName);
    const load = request.attributes.get(Attributes.inFlightLoad);
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < endpoints.length; i++) {
      const e = endpoints[i] as Endpoint;
      const cost = lmetricCost(info?.get(e.id), load?.requests(e) ?? 0);
      out[i] = cost ?? Number.NaN;
      if (cost === undefined) continue;
      if (cost < min) min = cost;
      if (cost > max) max = cost;
    }
    for (let i = 0; i < endpoints.length; i++) {
      const cost = out[i] as number;
      out[i] = Number.isNaN(cost) ? 0 : max > min ? (max - cost) / (max - min) : 1;
    }
  }, { consumes: [...matchInfoConsumes(producerName), Attributes.inFlightLoad.name] });
}

/**
 * `lmetric-scorer` (llm-d): prefers the endpoint where the request's uncached prefill times the
 * decode batch it would join is smallest, i.e. prefix-cache affinity traded against load in one
 * number. Reads `prefix-match-info` (of `prefixMatchInfoProducerName`) and the in-flight load
 * (both producers are created when missing).
 * @public
 * @category Plugins
 */
export const lmetricScorerDefinition: PluginDefinition<z.output<typeof lmetricScorerParameters>> = definePlugin({
  type: LMETRIC_SCORER,
  description: 'Min-max of uncached prefill tokens × (in-flight requests + 1), lower is better.',
  parameters: lmetricScorerParameters,
  consumes: [...matchInfoConsumes(undefined), Attributes.inFlightLoad.name],
  notActedOn: { inFlightLoadProducerName: 'Switchyard keeps one in-flight load per picker (the pool\'s exact counts); every consumer reads it' },
  create: (p, ctx) => createLmetricScorer(ctx.name, p.prefixMatchInfoProducerName),
});
