import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, SwitchyardError, createDefaultRegistry, loadConfig, parseRequest, passthroughParser, requestParserPlugin, type LoadedConfig, type RequestParser } from '@switchyard/core';

const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';
const load = (yaml: string): LoadedConfig => loadConfig(HEAD + yaml, { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });

function errorOf(fn: () => unknown): SwitchyardError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SwitchyardError);
    return e as SwitchyardError;
  }
  throw new Error('expected CONFIG_INVALID');
}

const chat = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
const anthropic = JSON.stringify({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });

describe('requestHandler.parsers', () => {
  it('names no parsers by default, so the caller keeps its own list', () => {
    expect(load('plugins:\n- type: queue-scorer\n').parsers).toBeUndefined();
  });

  it('uses the listed parser plugins in order; without a fallback an unclaimed path is a 400', () => {
    const config = load('plugins:\n- name: oai\n  type: openai-parser\n- type: queue-scorer\nrequestHandler:\n  parsers:\n  - pluginRef: oai\n');
    const parsers = config.parsers ?? [];
    expect(parsers.map((p) => p.type)).toEqual(['openai-parser']);
    expect(parseRequest({ path: '/v1/chat/completions', headers: {}, body: chat }, { parsers }).api).toBe('openai-chat-completions');
    const e = errorOf(() => parseRequest({ path: '/v1/messages', headers: {}, body: anthropic }, { parsers }));
    expect(e.code).toBe('BAD_REQUEST');
    // The default list has a fallback: the same path parses.
    expect(parseRequest({ path: '/v1/messages', headers: {}, body: anthropic }).api).toBe('anthropic-messages');
  });

  it("creates a parser type that no plugin of the document is named after, as llm-d does, and prints it in the effective config", () => {
    const config = load('plugins:\n- type: queue-scorer\nrequestHandler:\n  parsers:\n  - pluginRef: anthropic-parser\n  - pluginRef: passthrough-parser\n');
    expect(config.parsers?.map((p) => p.type)).toEqual(['anthropic-parser', 'passthrough-parser']);
    const again = loadConfig(config.printEffectiveConfig(), { registry: createDefaultRegistry(), pool: new EndpointPool() });
    expect(again.parsers?.map((p) => `${p.type}/${(p as unknown as { name: string }).name}`)).toEqual(['anthropic-parser/anthropic-parser', 'passthrough-parser/passthrough-parser']);
  });

  it("moves llm-d's deprecated top-level parser and saturationDetector to their places", () => {
    const config = load('plugins:\n- type: queue-scorer\n- name: gate\n  type: utilization-detector\nparser:\n  pluginRef: openai-parser\nsaturationDetector:\n  pluginRef: gate\n');
    expect(config.parsers?.map((p) => p.type)).toEqual(['openai-parser']);
    expect(config.requestHandler).toEqual({ parsers: [{ pluginRef: 'openai-parser' }] });
    expect(config.flowControl).toEqual({ saturationDetector: { pluginRef: 'gate' } });
    // The new place wins when both are set.
    const both = load('plugins:\n- type: queue-scorer\nparser:\n  pluginRef: openai-parser\nrequestHandler:\n  parsers:\n  - pluginRef: vllmhttp-parser\n');
    expect(both.parsers?.map((p) => p.type)).toEqual(['vllmhttp-parser']);
  });

  it('takes a custom parser registered with requestParserPlugin', () => {
    const ollama: RequestParser = { type: 'ollama-parser', paths: ['api/generate'], parse: (input) => ({ ...passthroughParser.parse(input), model: 'from-ollama' }) };
    const registry = createDefaultRegistry().register(requestParserPlugin(ollama, 'Ollama generate bodies.'));
    const config = loadConfig(`${HEAD}plugins:\n- type: queue-scorer\n- type: ollama-parser\nrequestHandler:\n  parsers:\n  - pluginRef: ollama-parser\n  - pluginRef: passthrough-parser\n`, { registry, pool: new EndpointPool() });
    const parsers = config.parsers ?? [];
    expect(parseRequest({ path: '/api/generate', headers: {}, body: '{"model":"x"}' }, { parsers }).model).toBe('from-ollama');
    expect(parseRequest({ path: '/v1/chat/completions', headers: {}, body: chat }, { parsers }).api).toBe('passthrough');
  });

  it('names the entry that is not a parser, or not there at all', () => {
    expect(errorOf(() => load('plugins:\n- type: queue-scorer\nrequestHandler:\n  parsers:\n  - pluginRef: queue-scorer\n')).message).toMatch(
      /requestHandler\.parsers\[0\]\.pluginRef.*"queue-scorer" \(type queue-scorer\) is not a request parser/,
    );
    expect(errorOf(() => load('plugins:\n- type: queue-scorer\nrequestHandler:\n  parsers:\n  - pluginRef: grpc\n')).message).toMatch(/requestHandler\.parsers\[0\]\.pluginRef.*"grpc" is neither a plugin/);
    expect(errorOf(() => load('plugins:\n- type: queue-scorer\nrequestHandler:\n  parser: x\n')).message).toMatch(/requestHandler/);
  });
});
