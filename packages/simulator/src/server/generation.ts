import type { ServerResponse } from 'node:http';
import { SwitchyardError } from '@switchyard/core';
import type { EngineModel } from '../engine/engine.js';
import type { EngineRequestResult } from '../engine/types.js';
import type { EngineRequestView } from '../engine/sequence.js';
import { detokenize } from '../tokens/text-tokens.js';
import { HttpError, sendJson } from './http-util.js';
import { chunkBody, completionBody, SSE_DONE, sseFrame, usageChunk, usageOf, type ResponseHead } from './openai-format.js';
import type { ParsedGeneration } from './openai-parse.js';

/**
 * Everything one generation needs.
 * @internal
 */
export interface GenerationContext {
  readonly engine: EngineModel;
  readonly parsed: ParsedGeneration;
  readonly head: ResponseHead;
  readonly adapter: string | undefined;
}

/**
 * Submits to the engine and resolves when the request finishes or the client goes away (which
 * aborts it in the engine, freeing its blocks at once).
 */
function run(ctx: GenerationContext, res: ServerResponse, onToken: (tokenId: number, index: number, view: EngineRequestView) => void): Promise<EngineRequestResult> {
  return new Promise((resolve, reject) => {
    let done = false;
    let view: EngineRequestView | undefined;
    const onClose = (): void => {
      if (!done) ctx.engine.abort(ctx.head.id);
    };
    try {
      view = ctx.engine.submit(
        { id: ctx.head.id, promptTokens: ctx.parsed.promptTokens, maxOutputTokens: ctx.parsed.maxTokens, adapter: ctx.adapter, cacheSalt: ctx.parsed.cacheSalt },
        {
          onToken: (t, i) => {
            if (view !== undefined) onToken(t, i, view);
          },
          onFinish: (r) => {
            done = true;
            res.off('close', onClose);
            resolve(r);
          },
        },
      );
    } catch (err) {
      reject(err instanceof SwitchyardError ? new HttpError(err.status, err.message, 'BadRequestError') : err as Error);
      return;
    }
    res.on('close', onClose);
  });
}

/** Answers with one JSON body once the request completes. @internal */
export async function collectGeneration(ctx: GenerationContext, res: ServerResponse): Promise<void> {
  const tokens: number[] = [];
  const r = await run(ctx, res, (t) => tokens.push(t));
  if (r.finishReason === 'abort' || res.destroyed) return;
  sendJson(res, 200, completionBody(ctx.parsed.api, ctx.head, detokenize(tokens), 'length', usageOf(r.promptTokens, r.outputTokens, r.cachedTokens)));
}

/** Streams one SSE chunk per token, then the usage chunk (when asked) and `[DONE]`. @internal */
export async function streamGeneration(ctx: GenerationContext, res: ServerResponse): Promise<void> {
  const { api, maxTokens, includeUsage, continuousUsage } = ctx.parsed;
  const prompt = ctx.parsed.promptTokens.length;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  const r = await run(ctx, res, (t, i, view) => {
    const last = i === maxTokens - 1;
    const usage = continuousUsage ? usageOf(prompt, i + 1, view.cachedTokens) : undefined;
    res.write(sseFrame(chunkBody(api, ctx.head, detokenize([t]), last ? 'length' : null, i === 0, usage)));
  });
  if (r.finishReason === 'abort' || res.destroyed) return;
  if (includeUsage) res.write(sseFrame(usageChunk(api, ctx.head, usageOf(r.promptTokens, r.outputTokens, r.cachedTokens))));
  res.end(SSE_DONE);
}

