import { BYTES_PER_TOKEN } from './text-tokens.js';

/**
 * One chat message as the simulator's chat template sees it.
 * @public
 * @category Tokens
 */
export interface TemplateMessage {
  /** Role (`system`, `user`, `assistant`, `tool`...). */
  readonly role: string;
  /** Text content (multi-part content already flattened). */
  readonly content: string;
}

const pad = (s: string): string => {
  const rem = Buffer.byteLength(s, 'utf8') % BYTES_PER_TOKEN;
  return rem === 0 ? s : s + ' '.repeat(BYTES_PER_TOKEN - rem);
};

/**
 * Renders messages to the prompt text the simulated engine tokenizes, ChatML-style:
 * `<|im_start|>role\ncontent<|im_end|>\n` per message, each padded with spaces to a whole number
 * of tokens so that a conversation's earlier turns keep identical tokens when it grows. With
 * `addGenerationPrompt` (vLLM's default) an `<|im_start|>assistant\n` header follows.
 * @public
 * @category Tokens
 */
export function renderChatTemplate(messages: readonly TemplateMessage[], addGenerationPrompt = true): string {
  let out = '';
  for (const m of messages) out += pad(`<|im_start|>${m.role}\n${m.content}<|im_end|>\n`);
  if (addGenerationPrompt) out += pad('<|im_start|>assistant\n');
  return out;
}

/**
 * Flattens OpenAI message content (a string, or an array of parts of which text parts count).
 * @public
 * @category Tokens
 */
export function flattenContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const part of content as unknown[]) {
    if (typeof part === 'object' && part !== null) {
      const text = (part as { text?: unknown }).text;
      if (typeof text === 'string') out += text;
    }
  }
  return out;
}
