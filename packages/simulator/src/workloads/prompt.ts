import { fillSyntheticTokens } from '../tokens/synthetic.js';
import type { PromptPart, SyntheticSpan, WorkloadItem } from './types.js';

const partLength = (p: PromptPart): number => (p instanceof Uint32Array ? p.length : p.length);

/**
 * Total length of prompt parts.
 * @public
 */
export function promptLengthOf(parts: readonly PromptPart[]): number {
  let n = 0;
  for (const p of parts) n += partLength(p);
  return n;
}

/**
 * The token ids of a prompt (or of a workload item's prompt).
 * @public
 */
export function materializePrompt(prompt: readonly PromptPart[] | WorkloadItem): Uint32Array {
  const parts = Array.isArray(prompt) ? (prompt as readonly PromptPart[]) : (prompt as WorkloadItem).prompt;
  const out = new Uint32Array(promptLengthOf(parts));
  let at = 0;
  for (const p of parts) {
    if (p instanceof Uint32Array) out.set(p, at);
    else fillSyntheticTokens(out, at, p.seed, p.offset ?? 0, p.length);
    at += partLength(p);
  }
  return out;
}

/**
 * The first `length` tokens of a prompt, as parts (a prefix view; spans are cut, not copied).
 * @public
 */
export function prefixParts(parts: readonly PromptPart[], length: number): PromptPart[] {
  const out: PromptPart[] = [];
  let left = length;
  for (const p of parts) {
    if (left <= 0) break;
    const n = partLength(p);
    if (n <= left) out.push(p);
    else if (p instanceof Uint32Array) out.push(p.subarray(0, left));
    else out.push({ seed: p.seed, offset: p.offset ?? 0, length: left } satisfies SyntheticSpan);
    left -= Math.min(n, left);
  }
  return out;
}

/**
 * Length of the common token prefix of two prompts.
 * @public
 */
export function commonPrefixLength(a: readonly PromptPart[], b: readonly PromptPart[]): number {
  const ta = materializePrompt(a);
  const tb = materializePrompt(b);
  const n = Math.min(ta.length, tb.length);
  let i = 0;
  while (i < n && ta[i] === tb[i]) i++;
  return i;
}
