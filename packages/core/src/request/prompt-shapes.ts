import { SwitchyardError } from '../errors/switchyard-error.js';
import { fieldTypeError, isJsonObject } from './fields.js';
import type { ChatMessage, PromptView } from './types.js';

const PROMPT_SHAPES = 'a string, an array of strings, an array of token ids or an array of token id arrays';

function isTokenId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function tokenArray(value: readonly unknown[]): readonly number[] | undefined {
  for (const v of value) if (!isTokenId(v)) return undefined;
  return value as readonly number[];
}

/**
 * Reads an OpenAI-style prompt or input: `string | string[] | number[] | number[][]`.
 * `undefined`/`null` → `none`; an empty array → no text prompts.
 * @throws SwitchyardError `BAD_REQUEST` naming `path` on any other shape
 */
export function promptFromInput(value: unknown, path: string): PromptView {
  if (value === undefined || value === null) return NO_PROMPT;
  if (typeof value === 'string') return new TextPrompt(Array.of(value));
  if (!Array.isArray(value)) throw fieldTypeError(path, PROMPT_SHAPES, value);
  if (value.length === 0) return new TextPrompt(Array.of<string>());
  const first: unknown = value[0];
  if (typeof first === 'string') {
    for (const v of value) if (typeof v !== 'string') throw fieldTypeError(path, PROMPT_SHAPES, value);
    return new TextPrompt(value as readonly string[]);
  }
  if (typeof first === 'number') {
    const ids = tokenArray(value);
    if (ids === undefined) throw new SwitchyardError('BAD_REQUEST', `field "${path}" must hold non-negative integer token ids`);
    return new TokensPrompt(Array.of(ids));
  }
  if (Array.isArray(first)) {
    const lists = value.map((v: unknown, i) => {
      const ids = Array.isArray(v) ? tokenArray(v) : undefined;
      if (ids === undefined) throw new SwitchyardError('BAD_REQUEST', `field "${path}[${i}]" must be an array of non-negative integer token ids`);
      return ids;
    });
    return new TokensPrompt(lists);
  }
  throw fieldTypeError(path, PROMPT_SHAPES, value);
}

/*
 * Prompt views and chat messages are class instances, and their arrays come from builtins
 * (`Array.of`, `map`), never object or array literals. They live as long as the request, and V8
 * may pretenure a literal's allocation site whose objects outlive a young-generation GC; a
 * pretenured object then keeps every young object it references alive through each scavenge
 * until the next full GC (in the gateway: ~2.5 MB promoted per scavenge, 10-15 µs per request).
 * Classes and builtin-made arrays have no allocation site to pretenure.
 */

/** A `text` prompt view. */
class TextPrompt {
  readonly kind = 'text';
  constructor(readonly texts: readonly string[]) {}
}

/** A `tokens` prompt view. */
class TokensPrompt {
  readonly kind = 'tokens';
  constructor(readonly tokenIds: readonly (readonly number[])[]) {}
}

/** A `chat` prompt view. */
class ChatPrompt {
  readonly kind = 'chat';
  constructor(
    readonly messages: readonly ChatMessage[],
    readonly toolsJson: string | undefined,
  ) {}
}

/** The prompt view of a request without one. */
export const NO_PROMPT: PromptView = Object.freeze({ kind: 'none' });

/** Builds a `chat` prompt view. */
export function chatPrompt(messages: readonly ChatMessage[], toolsJson: string | undefined): PromptView {
  return new ChatPrompt(messages, toolsJson);
}

/** Media kind of a content part type, for the part types the APIs define. */
const MEDIA_PARTS: Readonly<Record<string, string>> = {
  image_url: 'image',
  input_image: 'image',
  image: 'image',
  input_audio: 'audio',
  audio_url: 'audio',
  video_url: 'video',
  input_video: 'video',
  file: 'file',
  input_file: 'file',
  document: 'document',
};

/** Part types whose `text` field is the text. */
const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);

/**
 * Flattens message content (a string, `null`, or an array of typed parts) to text plus media
 * kinds. Text parts are joined with `\n` (as vLLM's chat-template input does); media parts are
 * recorded by kind; other part kinds (tool results, refusals, thinking) contribute their JSON so
 * that different conversations keep different prefixes.
 * @throws SwitchyardError `BAD_REQUEST` naming `path` on a wrong shape
 */
export function flattenContent(content: unknown, path: string): { text: string; media: string[] } {
  if (content === undefined || content === null) return { text: '', media: [] };
  if (typeof content === 'string') return { text: content, media: [] };
  if (!Array.isArray(content)) throw fieldTypeError(path, 'a string or an array of content parts', content);
  const texts: string[] = [];
  const media: string[] = [];
  for (const [i, part] of content.entries()) {
    if (typeof part === 'string') {
      texts.push(part);
      continue;
    }
    if (!isJsonObject(part)) throw fieldTypeError(`${path}[${i}]`, 'an object', part);
    const type = part['type'];
    if (typeof type !== 'string') throw fieldTypeError(`${path}[${i}].type`, 'a string', type);
    const kind = MEDIA_PARTS[type];
    if (kind !== undefined) {
      media.push(kind);
    } else if (TEXT_PARTS.has(type)) {
      const text = part['text'];
      if (typeof text !== 'string') throw fieldTypeError(`${path}[${i}].text`, 'a string', text);
      texts.push(text);
    } else {
      texts.push(JSON.stringify(part));
    }
  }
  return { text: texts.join('\n'), media };
}

/**
 * Builds a {@link ChatMessage}, omitting empty optional fields.
 */
export function chatMessage(role: string, flat: { text: string; media: string[] }, toolCallsJson?: string): ChatMessage {
  return new Message(role, flat.text, flat.media.length > 0 ? flat.media : undefined, toolCallsJson);
}

/** A chat message (a class for the reason above); optional fields exist only when set. */
class Message implements ChatMessage {
  declare readonly media?: readonly string[];
  declare readonly toolCallsJson?: string;

  constructor(
    readonly role: string,
    readonly content: string,
    media: readonly string[] | undefined,
    toolCallsJson: string | undefined,
  ) {
    const self = this as { media?: readonly string[]; toolCallsJson?: string };
    if (media !== undefined) self.media = media;
    if (toolCallsJson !== undefined) self.toolCallsJson = toolCallsJson;
  }
}
