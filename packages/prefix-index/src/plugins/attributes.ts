import { attributeKey, prefixMatchAttribute, type AttributeKey, type PrefixMatchInfo, type SchedulingRequest } from '@switchyard/core';
import type { BlockKeys } from '../api/types.js';

/**
 * A request's prompts as uint32 little-endian token bytes: real token ids packed, or the estimate
 * backend's 4-byte pseudo-tokens.
 * @public
 * @category Plugins
 */
export interface PromptBytes {
  /** One buffer per prompt (length a multiple of 4). */
  readonly prompts: readonly Uint8Array[];
  /** True when the bytes are the estimate (not real token ids). */
  readonly estimated: boolean;
}

/**
 * Attributes of this package besides core's well-known ones.
 * @public
 * @category Plugins
 */
export const PrefixAttributes = {
  /** Written by `token-producer`; read by the approximate producer. */
  promptBytes: attributeKey<PromptBytes>('prefix-prompt-bytes'),
} as const;

/**
 * Attribute name of the match info written by the producer named `producerName`: scorers and
 * filters with `prefixMatchInfoProducerName` read it, so approximate and precise producers can
 * run side by side.
 * @public
 * @category Plugins
 */
export function matchInfoAttribute(producerName: string): AttributeKey<ReadonlyMap<string, PrefixMatchInfo>> {
  // Core owns the naming scheme: its prefix-based-pd-decider reads the same key.
  return prefixMatchAttribute(producerName);
}

/**
 * Attribute holding the block keys a producer computed for the request (read back in `preRequest`).
 * @public
 * @category Plugins
 */
export function blockKeysAttribute(producerName: string): AttributeKey<BlockKeys> {
  return attributeKey(`prefix-block-keys/${producerName}`);
}

/**
 * The prefix match info a plugin should read: the named producer's, or the shared attribute.
 * @public
 * @category Plugins
 */
export function readMatchInfo(request: SchedulingRequest, producerName: string | undefined): ReadonlyMap<string, PrefixMatchInfo> | undefined {
  return request.attributes.get(prefixMatchAttribute(producerName));
}

/**
 * Attribute names a prefix consumer reads.
 * @public
 * @category Plugins
 */
export function matchInfoConsumes(producerName: string | undefined): readonly string[] {
  return [prefixMatchAttribute(producerName).name];
}
