export type { ApiKind, ChatMessage, PromptView, InferenceRequest } from './types.js';
