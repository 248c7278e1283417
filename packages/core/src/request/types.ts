/**
 * Which API shape a request body has; chosen by longest path suffix.
 * @public
 * @category Request parsing
 */
export type ApiKind =
  | 'openai-chat-completions'
  | 'openai-completions'
  | 'openai-embeddings'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'anthropic-count-tokens'
  | 'vllm-generate'
  | 'sglang-generate'
  | 'passthrough';

/**
 * One chat message as far as routing cares: the role and the content, flattened to text
 * (multi-part content keeps its text parts; media parts are recorded in `media`).
 * @public
 * @category Request parsing
 */
export interface ChatMessage {
  readonly role: string;
  /** Text content; multi-part content joined in order. */
  readonly content: string;
  /** Media part kinds present in the message (`image`, `audio`, `video`, `file`, `document`), in order. */
  readonly media?: readonly string[];
  /** Tool calls the message carries (OpenAI `tool_calls`), serialised as JSON, so prefixes differ per call. */
  readonly toolCallsJson?: string;
}

/**
 * What a request's prompt is, without the rest of the body.
 * - `text`: one or more text prompts (completions may carry a list; each gets its own hash chain).
 * - `chat`: messages plus the tools definition (serialised JSON, or undefined).
 * - `tokens`: one or more pre-tokenised prompts.
 * - `none`: the body has no prompt (embeddings of unknown shape, passthrough, no body).
 * @public
 * @category Request parsing
 */
export type PromptView =
  | { readonly kind: 'text'; readonly texts: readonly string[] }
  | { readonly kind: 'chat'; readonly messages: readonly ChatMessage[]; readonly toolsJson: string | undefined }
  | { readonly kind: 'tokens'; readonly tokenIds: readonly (readonly number[])[] }
  | { readonly kind: 'none' };

/**
 * A parsed inference request: everything the scheduler needs, independent of the transport.
 * Produced by `parseRequest`; adapters never build it by hand.
 * @public
 * @category Request parsing
 */
export interface InferenceRequest {
  /** `x-request-id`, or a generated UUID. */
  readonly id: string;
  /** Path used for parser selection (query stripped). */
  readonly path: string;
  /** API shape of the body. */
  readonly api: ApiKind;
  /** Lower-case request headers as received (control headers included; adapters strip them on forward). */
  readonly headers: Readonly<Record<string, string>>;
  /** Model named by the client (body `model`), or `''` when the API has none (passthrough). */
  readonly model: string;
  /** Whether the client asked for a streamed response. */
  readonly stream: boolean;
  /** Max output tokens the client asked for, when given. */
  readonly maxOutputTokens: number | undefined;
  /** The prompt, for prefix matching and token estimates. */
  readonly prompt: PromptView;
  /** vLLM `cache_salt`, when given. */
  readonly cacheSalt: string | undefined;
  /** Size of the body in bytes. */
  readonly byteSize: number;
  /** Parsed JSON body (undefined when there is no body or the API is passthrough with a non-JSON body). */
  readonly body: Readonly<Record<string, unknown>> | undefined;
  /** Raw body bytes as received. */
  readonly rawBody: Uint8Array;
}
