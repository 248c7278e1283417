import type { InferenceRequest, PickOptions } from '@switchyard/core';
import type { WorkloadItem } from '../workloads/types.js';

const EMPTY = new Uint8Array(0);

/**
 * The parsed request a gateway would hand the picker for a workload item: an OpenAI completions
 * call whose prompt is the item's token ids (so prefix matching sees exactly the engine's tokens).
 * Built directly rather than by serialising and parsing a body, which would dominate the run time;
 * the token ids are the `tokens` array itself, not a copy.
 * @public
 * @category Fleet
 */
export function itemRequest(item: WorkloadItem, tokens: Uint32Array, model: string): InferenceRequest {
  const target = item.adapter ?? model;
  // The typed array stands in for `number[]`: every consumer of token ids reads only `length`,
  // indexes and iterates them, and the prefix index hashes a Uint32Array's bytes in place. Copying
  // 8K-100K ids into an array per request was a tenth of a run's CPU (copy plus garbage).
  const ids = tokens as unknown as number[];
  return {
    id: item.id,
    path: '/v1/completions',
    api: 'openai-completions',
    headers: {},
    model: target,
    stream: true,
    maxOutputTokens: item.maxOutputTokens,
    prompt: { kind: 'tokens', tokenIds: [ids] },
    cacheSalt: undefined,
    byteSize: tokens.length * 6 + 64,
    body: { model: target, max_tokens: item.maxOutputTokens, stream: true },
    rawBody: EMPTY,
  };
}

/** Objective name carrying a priority, resolved by {@link priorityObjectives}. */
const objectiveOf = (priority: number): string => `priority-${priority}`;

/**
 * Pick options for an item: its tenant as fairness id and its priority as an objective.
 * @public
 * @category Fleet
 */
export function itemPickOptions(item: WorkloadItem): PickOptions {
  return { trustClassificationHeaders: false, classification: { fairnessId: item.tenant, objective: objectiveOf(item.priority) } };
}

/**
 * Objective lookup mapping the `priority-<n>` objectives of {@link itemPickOptions} to `n`.
 * @public
 * @category Fleet
 */
export const priorityObjectives = {
  priorityOf(name: string | undefined): number {
    if (name?.startsWith('priority-') !== true) return 0;
    const n = Number(name.slice('priority-'.length));
    return Number.isFinite(n) ? n : 0;
  },
};
