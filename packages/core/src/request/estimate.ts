import type { PromptView } from './types.js';

/**
 * UTF-8 byte length of a string, computed without allocating.
 * @public
 */
export function utf8ByteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A valid surrogate pair is one 4-byte code point.
      n += 4;
      i++;
    } else n += 3; // BMP character, or a lone surrogate (encoded as U+FFFD, 3 bytes)
  }
  return n;
}

/**
 * A cheap prompt-size estimate for schedulers that have no tokenizer: UTF-8 bytes / 4, rounded
 * up, for text (per prompt); for chat, the message contents plus the tools JSON together; the
 * exact count for pre-tokenised prompts; 0 when there is no prompt.
 * @public
 */
export function estimatePromptTokens(prompt: PromptView): number {
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
