import type { PromptView } from './types.js';

/**
 * UTF-8 byte length of a string (lone surrogates count as U+FFFD, 3 bytes), computed natively
 * without allocating.
 * @public
 */
export function utf8ByteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

// Prompt views are immutable, and several plugins ask for the estimate of the same request in one
// cycle; an 800 KB prompt costs milliseconds to measure, so remember the answer per view.
const estimates = new WeakMap<PromptView, number>();

/**
 * A cheap prompt-size estimate for schedulers that have no tokenizer: UTF-8 bytes / 4, rounded
 * up, for text (per prompt); for chat, the message contents plus the tools JSON together; the
 * exact count for pre-tokenised prompts; 0 when there is no prompt.
 * @public
 * @category Request parsing
 */
export function estimatePromptTokens(prompt: PromptView): number {
  let n = estimates.get(prompt);
  if (n === undefined) {
    n = measurePromptTokens(prompt);
    estimates.set(prompt, n);
  }
  return n;
}

function measurePromptTokens(prompt: PromptView): number {
  switch (prompt.kind) {
    case 'text': {
      let total = 0;
      for (const t of prompt.texts) total += Math.ceil(utf8ByteLength(t) / 4);
      return total;
    }
    case 'chat': {
      let bytes = prompt.toolsJson === undefined ? 0 : utf8ByteLength(prompt.toolsJson);
      for (const m of prompt.messages) {
        bytes += utf8ByteLength(m.content);
        if (m.toolCallsJson !== undefined) bytes += utf8ByteLength(m.toolCallsJson);
      }
      return Math.ceil(bytes / 4);
    }
    case 'tokens': {
      let total = 0;
      for (const ids of prompt.tokenIds) total += ids.length;
      return total;
    }
    case 'none':
      return 0;
  }
}
