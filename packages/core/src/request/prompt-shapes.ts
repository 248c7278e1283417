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
  if (value === undefined || value === null) return { kind: 'none' };
  if (typeof value === 'string') return { kind: 'text', texts: [value] };
  if (!Array.isArray(value)) throw fieldTypeError(path, PROMPT_SHAPES, value);
  if (value.length === 0) return { kind: 'text', texts: [] };
  const first: unknown = value[0];
  if (typeof first === 'string') {
    for (const v of value) if (typeof v !== 'string') throw fieldTypeError(path, PROMPT_SHAPES, value);
    return { kind: 'text', texts: value as readonly string[] };
  }
  if (typeof first === 'number') {
    const ids = tokenArray(value);
    if (ids === undefined) throw new SwitchyardError('BAD_REQUEST', `field "${path}" must hold non-negative integer token ids`);
    return { kind: 'tokens', tokenIds: [ids] };
  }
  if (Array.isArray(first)) {
    const lists: (readonly number[])[] = [];
    for (const [i, v] of value.entries()) {
      const ids = Array.isArray(v) ? tokenArray(v) : undefined;
      if (ids === undefined) throw new SwitchyardError('BAD_REQUEST', `field "${path}[${i}]" must be an array of non-negative integer token ids`);
      lists.push(ids);
    }
    return { kind: 'tokens', tokenIds: lists };
  }
  throw fieldTypeError(path, PROMPT_SHAPES, value);
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
  const msg: { role: string; content: string; media?: readonly string[]; toolCallsJson?: string } = { role, content: flat.text };
  if (flat.media.length > 0) msg.media = flat.media;
  if (toolCallsJson !== undefined) msg.toolCallsJson = toolCallsJson;
  return msg;
}
