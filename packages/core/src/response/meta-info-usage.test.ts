import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createResponseBodyReader } from '@switchyard/core';

/** The usage core's response reader reads from `body`, fed in the given chunk size. */
function usageOf(body: string, contentType: string, chunk = body.length || 1) {
  const reader = createResponseBodyReader({ contentType });
  const bytes = Buffer.from(body);
  for (let i = 0; i < bytes.length; i += chunk) reader.push(bytes.subarray(i, i + chunk));
  reader.end();
  return reader.usage;
}

describe("SGLang's meta_info usage", () => {
  it('reads prompt, completion and cached tokens of a JSON body, whatever else meta_info holds', () => {
    expect(usageOf('{"text":"hello","meta_info":{"prompt_tokens":10,"completion_tokens":5}}', 'application/json')).toEqual({ promptTokens: 10, completionTokens: 5 });
    expect(usageOf('{"text":"}{","output_ids":[1,2],"meta_info":{"id":"req-1}","finish_reason":{"type":"stop","matched":"\\"}"},"prompt_tokens":8,"completion_tokens":3,"cached_tokens":2}}', 'application/json')).toEqual({ promptTokens: 8, completionTokens: 3, cachedTokens: 2 });
    expect(usageOf('{"text":"","meta_info":{"prompt_tokens":0,"completion_tokens":0}}', 'application/json')).toEqual({ promptTokens: 0, completionTokens: 0 });
    expect(usageOf('{"meta_info":{"id":"x"}}', 'application/json')).toBeUndefined();
    expect(usageOf('{"meta_info":', 'application/json')).toBeUndefined();
    // A meta_info key quoted inside a string is text, not the object.
    expect(usageOf('{"text":"say \\"meta_info\\": {\\"prompt_tokens\\": 1}"}', 'application/json')).toBeUndefined();
  });

  it('takes a stream’s usage from the finished event only, as llm-d does', () => {
    const partial = 'data: {"text":"he","meta_info":{"prompt_tokens":10,"completion_tokens":2,"finish_reason":null}}\n\n';
    const final = 'event: generation\ndata: {"text":"hello","meta_info":{"prompt_tokens":10,"completion_tokens":5,"finish_reason":{"type":"stop"}}}\n\n';
    expect(usageOf(partial, 'text/event-stream')).toBeUndefined();
    expect(usageOf(`${partial}${final}data: [DONE]\n\n`, 'text/event-stream; charset=utf-8')).toEqual({ promptTokens: 10, completionTokens: 5 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), (chunk) => {
      expect(usageOf(`${partial}${final}data: [DONE]\n\n`, 'text/event-stream', chunk)).toEqual({ promptTokens: 10, completionTokens: 5 });
    }));
  });

  it('leaves OpenAI usage first when a body carries both', () => {
    expect(usageOf('{"meta_info":{"prompt_tokens":1,"completion_tokens":1},"usage":{"prompt_tokens":7,"completion_tokens":3}}', 'application/json')).toEqual({ promptTokens: 7, completionTokens: 3 });
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json().map((j) => `{"meta_info":${j}}`)), fc.constantFrom('application/json', 'text/event-stream'), (body, type) => {
      usageOf(body, type);
    }));
  });
});
