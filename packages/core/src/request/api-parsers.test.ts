import { describe, expect, it } from 'vitest';
import { SwitchyardError, parseRequest, type InferenceRequest } from '@switchyard/core';

function parse(path: string, body: unknown): InferenceRequest {
  return parseRequest({ path, headers: {}, body: JSON.stringify(body) });
}

function messageOf(path: string, body: unknown): string {
  try {
    parse(path, body);
  } catch (err) {
    if (err instanceof SwitchyardError && err.code === 'BAD_REQUEST') return err.message;
    throw err;
  }
  throw new Error('expected BAD_REQUEST');
}

describe('OpenAI chat/completions', () => {
  it('flattens multi-part content, records media and serialises tools and tool calls', () => {
    const tools = [{ type: 'function', function: { name: 'f', parameters: {} } }];
    const req = parse('/v1/chat/completions', {
      model: 'm',
      stream: true,
      max_completion_tokens: 50,
      max_tokens: 70,
      cache_salt: 'salt',
      tools,
      messages: [
        { role: 'system', content: 'sys' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:' } },
            { type: 'text', text: 'and listen' },
            { type: 'input_audio', input_audio: { data: '', format: 'wav' } },
            { type: 'video_url', video_url: { url: 'v' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      ],
    });
    expect(req).toMatchObject({ api: 'openai-chat-completions', stream: true, maxOutputTokens: 50, cacheSalt: 'salt' });
    expect(req.prompt).toEqual({
      kind: 'chat',
      toolsJson: JSON.stringify(tools),
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'look\nand listen', media: ['image', 'audio', 'video'] },
        { role: 'assistant', content: '', toolCallsJson: '[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]' },
      ],
    });
  });

  it('falls back to max_tokens and validates it', () => {
    expect(parse('/v1/chat/completions', { model: 'm', messages: [], max_tokens: 7 }).maxOutputTokens).toBe(7);
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: [], max_tokens: -1 })).toBe('field "max_tokens" must be a non-negative integer, got -1');
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: [], max_completion_tokens: 1.5 })).toContain('"max_completion_tokens"');
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: [], max_tokens: '5' })).toBe('field "max_tokens" must be a non-negative integer, got string');
  });

  it('names the bad field on wrong types', () => {
    expect(messageOf('/v1/chat/completions', { model: 'm' })).toBe('missing required field "messages"');
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: {} })).toBe('field "messages" must be an array of messages, got object');
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: ['x'] })).toBe('field "messages[0]" must be an object, got string');
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: [{ role: 1 }] })).toBe('field "messages[0].role" must be a string, got number');
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: [{ role: 'u', content: 4 }] })).toContain('"messages[0].content"');
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: [{ role: 'u', content: [{ type: 'text' }] }] })).toBe(
      'field "messages[0].content[0].text" must be a string, got undefined',
    );
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: [], stream: 'yes' })).toBe('field "stream" must be a boolean, got string');
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: [], cache_salt: 1 })).toBe('field "cache_salt" must be a string, got number');
    expect(messageOf('/v1/chat/completions', { model: 'm', messages: [], tools: {} })).toBe('field "tools" must be an array, got object');
  });

  it('treats null optional fields as absent', () => {
    expect(parse('/v1/chat/completions', { model: 'm', messages: [], stream: null, max_tokens: null, tools: null })).toMatchObject({ stream: false, maxOutputTokens: undefined });
  });
});

describe('OpenAI completions and embeddings', () => {
  it('maps every prompt shape', () => {
    const p = (prompt: unknown): unknown => parse('/v1/completions', { model: 'm', prompt }).prompt;
    expect(p('a')).toEqual({ kind: 'text', texts: ['a'] });
    expect(p(['a', 'b'])).toEqual({ kind: 'text', texts: ['a', 'b'] });
    expect(p([1, 2, 3])).toEqual({ kind: 'tokens', tokenIds: [[1, 2, 3]] });
    expect(p([[1], [2, 3]])).toEqual({ kind: 'tokens', tokenIds: [[1], [2, 3]] });
    expect(p([])).toEqual({ kind: 'text', texts: [] });
    expect(parse('/v1/completions', { model: 'm' }).prompt).toEqual({ kind: 'none' });
    expect(parse('/v1/completions', { model: 'm', prompt: 'x', max_tokens: 3 }).maxOutputTokens).toBe(3);
  });

  it('rejects mixed or malformed prompts naming the field', () => {
    expect(messageOf('/v1/completions', { model: 'm', prompt: ['a', 1] })).toContain('field "prompt" must be a string, an array of strings');
    expect(messageOf('/v1/completions', { model: 'm', prompt: [1, -2] })).toBe('field "prompt" must hold non-negative integer token ids');
    expect(messageOf('/v1/completions', { model: 'm', prompt: [[1], 'a'] })).toBe('field "prompt[1]" must be an array of non-negative integer token ids');
    expect(messageOf('/v1/completions', { model: 'm', prompt: 5 })).toContain('got number');
    expect(messageOf('/v1/embeddings', { model: 'm', input: [true] })).toContain('field "input"');
  });

  it('reads embeddings input (and vLLM chat-style embeddings)', () => {
    expect(parse('/v1/embeddings', { model: 'e', input: ['x', 'y'] })).toMatchObject({ api: 'openai-embeddings', prompt: { kind: 'text', texts: ['x', 'y'] }, maxOutputTokens: undefined });
    expect(parse('/v1/embeddings', { model: 'e', messages: [{ role: 'user', content: 'q' }] }).prompt).toEqual({
      kind: 'chat',
      messages: [{ role: 'user', content: 'q' }],
      toolsJson: undefined,
    });
  });
});

describe('OpenAI responses', () => {
  it('turns instructions and input items into a chat view', () => {
    const call = { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' };
    const req = parse('/v1/responses', {
      model: 'm',
      instructions: 'be brief',
      max_output_tokens: 99,
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'hi' }, { type: 'input_image', image_url: 'u' }] },
        call,
        { role: 'assistant', content: 'ok' },
      ],
    });
    expect(req).toMatchObject({ api: 'openai-responses', maxOutputTokens: 99 });
    expect(req.prompt).toEqual({
      kind: 'chat',
      toolsJson: undefined,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi', media: ['image'] },
        { role: 'function_call', content: JSON.stringify(call) },
        { role: 'assistant', content: 'ok' },
      ],
    });
    expect(parse('/v1/responses', { model: 'm', input: 'plain' }).prompt).toEqual({ kind: 'chat', messages: [{ role: 'user', content: 'plain' }], toolsJson: undefined });
    expect(messageOf('/v1/responses', { model: 'm', input: 3 })).toBe('field "input" must be a string or an array of input items, got number');
  });
});

describe('Anthropic messages', () => {
  it('puts the system prompt first and reads max_tokens', () => {
    const req = parse('/v1/messages', {
      model: 'claude',
      max_tokens: 1024,
      stream: true,
      system: [{ type: 'text', text: 'sys a' }, { type: 'text', text: 'sys b' }],
      tools: [{ name: 't', input_schema: {} }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }, { type: 'image', source: {} }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 't', input: {} }] },
      ],
    });
    expect(req).toMatchObject({ api: 'anthropic-messages', model: 'claude', maxOutputTokens: 1024, stream: true });
    expect(req.prompt).toEqual({
      kind: 'chat',
      toolsJson: '[{"name":"t","input_schema":{}}]',
      messages: [
        { role: 'system', content: 'sys a\nsys b' },
        { role: 'user', content: 'q', media: ['image'] },
        { role: 'assistant', content: '{"type":"tool_use","id":"x","name":"t","input":{}}' },
      ],
    });
  });

  it('handles count_tokens and validates system', () => {
    const req = parse('/v1/messages/count_tokens', { model: 'claude', system: 's', messages: [{ role: 'user', content: 'q' }] });
    expect(req).toMatchObject({ api: 'anthropic-count-tokens', maxOutputTokens: undefined });
    expect(messageOf('/v1/messages', { model: 'c', system: 1, messages: [] })).toBe('field "system" must be a string or an array of content blocks, got number');
  });
});

describe('vLLM generate', () => {
  it('reads token ids, sampling_params.max_tokens, stream and cache_salt', () => {
    const req = parse('/inference/v1/generate', { model: 'm', token_ids: [5, 6, 7], sampling_params: { max_tokens: 12 }, stream: true, cache_salt: 's' });
    expect(req).toMatchObject({ api: 'vllm-generate', maxOutputTokens: 12, stream: true, cacheSalt: 's', prompt: { kind: 'tokens', tokenIds: [[5, 6, 7]] } });
    expect(parse('/inference/v1/generate', { model: 'm', prompt: 'txt' }).prompt).toEqual({ kind: 'text', texts: ['txt'] });
  });

  it('validates the generate shape', () => {
    expect(messageOf('/inference/v1/generate', { model: 'm', token_ids: 'x' })).toBe('field "token_ids" must be an array of token ids, got string');
    expect(messageOf('/inference/v1/generate', { model: 'm', token_ids: ['a'] })).toContain('field "token_ids"');
    expect(messageOf('/inference/v1/generate', { model: 'm', token_ids: [1], sampling_params: [] })).toBe('field "sampling_params" must be an object, got array');
    expect(messageOf('/inference/v1/generate', { model: 'm', token_ids: [1], sampling_params: { max_tokens: -3 } })).toBe(
      'field "sampling_params.max_tokens" must be a non-negative integer, got -3',
    );
  });
});
