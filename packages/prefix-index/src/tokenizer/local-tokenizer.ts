import { readFile } from 'node:fs/promises';
import { SwitchyardError, type ChatMessage, type InferenceRequest } from '@switchyard/core';
import type { Tokenizer } from './types.js';

/**
 * Options of {@link createLocalTokenizer}.
 * @public
 * @category Tokenizer
 */
export interface LocalTokenizerOptions {
  /** `tokenizer.json` content (parsed) or a file path. */
  readonly tokenizerJson: Readonly<Record<string, unknown>> | string;
  /** `tokenizer_config.json` content or a file path (optional). */
  readonly tokenizerConfig?: Readonly<Record<string, unknown>> | string;
  /**
   * Renders a chat to text before encoding. The default joins `role\ncontent\n` per message after
   * the tools JSON, which is not the model's chat template: token ids then differ from the
   * engine's, so use vLLM's render endpoint for the precise index.
   */
  readonly formatChat?: (messages: readonly ChatMessage[], toolsJson: string | undefined) => string;
  /** Add special tokens (BOS...). Default true for text prompts, false for chats (vLLM's defaults). */
  readonly addSpecialTokens?: boolean;
}

/** The slice of `@huggingface/tokenizers` used here. */
interface HfTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
}
interface HfModule {
  Tokenizer: new (tokenizer: object, config: object) => HfTokenizer;
}

async function jsonOf(v: Readonly<Record<string, unknown>> | string | undefined): Promise<object> {
  if (v === undefined) return {};
  if (typeof v !== 'string') return v;
  return JSON.parse(await readFile(v, 'utf8')) as object;
}

const defaultFormat = (messages: readonly ChatMessage[], toolsJson: string | undefined): string =>
  (toolsJson ?? '') + messages.map((m) => `${m.role}\n${m.content}\n`).join('');

/**
 * A tokenizer running in-process from a Hugging Face `tokenizer.json`, through the optional peer
 * dependency `@huggingface/tokenizers` (loaded on first use). Good for token counts and the
 * approximate index; for the precise index prefer {@link VllmRenderTokenizer}, which applies the
 * model's real chat template.
 * @throws SwitchyardError `CONFIG_INVALID` when the package is missing or the files do not load
 * @public
 * @category Tokenizer
 */
export async function createLocalTokenizer(options: LocalTokenizerOptions): Promise<Tokenizer> {
  let mod: HfModule;
  try {
    const specifier = '@huggingface/tokenizers';
    const loaded: unknown = await import(specifier);
    mod = loaded as HfModule;
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', 'local tokenizer: the optional peer dependency "@huggingface/tokenizers" is not installed', { cause: err });
  }
  let tok: HfTokenizer;
  try {
    tok = new mod.Tokenizer(await jsonOf(options.tokenizerJson), await jsonOf(options.tokenizerConfig));
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', `local tokenizer: cannot load tokenizerJson: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const format = options.formatChat ?? defaultFormat;
  // Some models map out-of-vocabulary pieces to nothing; keep the positions with id 0.
  const ids = (text: string, special: boolean): number[] => tok.encode(text, { add_special_tokens: special }).ids.map((id) => (Number.isInteger(id) ? id : 0));
  return {
    name: 'local',
    tokenize(request: InferenceRequest): Promise<number[][]> {
      const p = request.prompt;
      switch (p.kind) {
        case 'tokens':
          return Promise.resolve(p.tokenIds.map((t) => [...t]));
        case 'none':
          return Promise.resolve([]);
        case 'text':
          return Promise.resolve(p.texts.map((t) => ids(t, options.addSpecialTokens ?? true)));
        case 'chat':
          return Promise.resolve([ids(format(p.messages, p.toolsJson), options.addSpecialTokens ?? false)]);
      }
    },
  };
}
