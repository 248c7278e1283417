import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  EndpointPool, ManualClock, compileUsageExpression, createDefaultRegistry, loadConfig, requestAttributeReporterPlugin,
  type RequestLifecycle, type ResponseMetadata, type Usage,
} from '@switchyard/core';
import { endpoints, instantiate, schedulingRequest } from '@switchyard/core/testing';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';
const [endpoint] = endpoints(1);

interface Attribute { key?: { namespace?: string; name?: string }; expression?: string; condition?: string }

/** The dynamic metadata a reporter with `attribute` writes for a response with `usage`. */
function reported(attribute: Attribute, usage: Usage | undefined, initial: ResponseMetadata = {}): ResponseMetadata {
  const hook = instantiate(requestAttributeReporterPlugin, { attributes: [attribute] }) as unknown as RequestLifecycle;
  const dynamicMetadata = structuredClone(initial);
  hook.onResponseBody?.(schedulingRequest(), { endpoint: endpoint!, usage, dynamicMetadata });
  return dynamicMetadata;
}

const cost = (expression: string, condition?: string): Attribute => ({ key: { name: 'cost' }, expression, ...(condition === undefined ? {} : { condition }) });
const usage = (promptTokens: number, completionTokens: number, cachedTokens?: number): Usage => ({ promptTokens, completionTokens, ...(cachedTokens === undefined ? {} : { cachedTokens }) });

/** Loads a config with the reporter's `parameters` (YAML flow text, or none). */
function load(parameters: string | undefined): void {
  const params = parameters === undefined ? '' : `\n  parameters: ${parameters}`;
  loadConfig(`${HEAD}plugins:\n- type: request-attribute-reporter${params}\n- type: queue-scorer\n`, { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });
}

describe('request-attribute-reporter: what it reports', () => {
  it('writes the expression value as a number under envoy.lb.<name> by default', () => {
    expect(reported(cost('usage.prompt_tokens'), usage(15, 0))).toEqual({ 'envoy.lb': { cost: 15 } });
    expect(reported(cost('usage.prompt_tokens + usage.completion_tokens'), usage(7, 10))).toEqual({ 'envoy.lb': { cost: 17 } });
    expect(reported(cost('usage.total_tokens'), usage(7, 10))).toEqual({ 'envoy.lb': { cost: 17 } });
  });

  it('writes into a configured namespace, keeping what is already there', () => {
    const attr = { key: { namespace: 'ratelimit', name: 'tokens' }, expression: 'usage.completion_tokens' };
    expect(reported(attr, usage(1, 9), { 'envoy.lb': { other: 1 }, ratelimit: { kept: 2 } })).toEqual({ 'envoy.lb': { other: 1 }, ratelimit: { kept: 2, tokens: 9 } });
    expect(reported({ ...attr, key: { namespace: '', name: 'tokens' } }, usage(1, 9))).toEqual({ 'envoy.lb': { tokens: 9 } });
  });

  it('reports only when the condition is true (a non-bool condition counts as not met)', () => {
    expect(reported(cost('usage.prompt_tokens', 'usage.completion_tokens > 0'), usage(10, 0))).toEqual({});
    expect(reported(cost('usage.prompt_tokens', 'usage.completion_tokens > 0'), usage(10, 3))).toEqual({ 'envoy.lb': { cost: 10 } });
    expect(reported(cost('usage.prompt_tokens', 'usage.prompt_tokens'), usage(10, 3))).toEqual({});
  });

  it('skips zero, -1 (llm-d drops it as its type-error marker), non-numbers and runtime errors', () => {
    expect(reported(cost('usage.prompt_tokens', 'has(usage.prompt_tokens)'), usage(0, 5))).toEqual({});
    expect(reported(cost('usage.prompt_tokens - usage.completion_tokens'), usage(4, 5))).toEqual({});
    expect(reported(cost('usage.prompt_tokens - usage.completion_tokens'), usage(4, 6))).toEqual({ 'envoy.lb': { cost: -2 } });
    expect(reported(cost("'not a number'"), usage(10, 0))).toEqual({});
    expect(reported(cost('usage.prompt_tokens > 1'), usage(10, 0))).toEqual({});
    expect(reported(cost('uint(3)'), usage(10, 0))).toEqual({});
    expect(reported(cost('usage.non_existent_field'), usage(10, 0))).toEqual({});
    // Struct numbers are doubles: adding a CEL int fails at run time, as in cel-go; int() converts.
    expect(reported(cost('usage.prompt_tokens + 1'), usage(10, 0))).toEqual({});
    expect(reported(cost('int(usage.prompt_tokens) + 1'), usage(10, 0))).toEqual({ 'envoy.lb': { cost: 11 } });
  });

  it('truncates a double result toward zero, as llm-d converts it to int64', () => {
    expect(reported(cost('usage.completion_tokens * 1.5'), usage(0, 3))).toEqual({ 'envoy.lb': { cost: 4 } });
    expect(reported(cost('usage.completion_tokens * -0.9'), usage(0, 3))).toEqual({ 'envoy.lb': { cost: -2 } });
    expect(reported(cost('usage.completion_tokens / 4.0'), usage(0, 3))).toEqual({});
  });

  it('exposes the cached tokens only when the server reported them, under both spellings', () => {
    expect(reported(cost('usage.prompt_token_details.cached_tokens'), usage(10, 1, 6))).toEqual({ 'envoy.lb': { cost: 6 } });
    expect(reported(cost('usage.prompt_tokens_details.cached_tokens'), usage(10, 1, 6))).toEqual({ 'envoy.lb': { cost: 6 } });
    const guarded = cost('has(usage.prompt_token_details) ? usage.prompt_tokens - usage.prompt_token_details.cached_tokens : usage.prompt_tokens');
    expect(reported(guarded, usage(10, 1))).toEqual({ 'envoy.lb': { cost: 10 } });
    expect(reported(guarded, usage(10, 1, 6))).toEqual({ 'envoy.lb': { cost: 4 } });
  });

  it('without usage every count is 0 (llm-d marshals an empty Usage), so only constants report', () => {
    expect(reported(cost('(has(usage.prompt_tokens) ? usage.prompt_tokens : 0) + (has(usage.completion_tokens) ? usage.completion_tokens : 0)'), undefined)).toEqual({});
    expect(reported(cost('5'), undefined)).toEqual({ 'envoy.lb': { cost: 5 } });
  });

  it('does nothing when the adapter has no data plane to send metadata to', () => {
    const hook = instantiate(requestAttributeReporterPlugin, { attributes: [cost('5')] }) as unknown as RequestLifecycle;
    expect(() => hook.onResponseBody?.(schedulingRequest(), { endpoint: endpoint!, usage: usage(1, 1) })).not.toThrow();
  });

  it('property: a sum expression reports prompt + completion for any counts, except 0 and never throwing', () => {
    const attr = cost('usage.prompt_tokens + usage.completion_tokens');
    fc.assert(fc.property(fc.nat(1e9), fc.nat(1e9), (p, c) => {
      const got = reported(attr, usage(p, c));
      expect(got).toEqual(p + c === 0 ? {} : { 'envoy.lb': { cost: p + c } });
    }));
  });
});

describe('request-attribute-reporter: parameters (llm-d: required, exactly one attribute)', () => {
  it("loads llm-d's documented example", () => {
    expect(() => { load('{attributes: [{key: {namespace: envoy.lb, name: x-gateway-inference-request-cost}, expression: "usage.prompt_tokens + usage.completion_tokens", condition: "has(usage.prompt_tokens) && has(usage.completion_tokens)"}]}'); }).not.toThrow();
    expect(() => { load('{attributes: [{key: {name: c}, expression: usage.prompt_tokens, condition: ""}]}'); }).not.toThrow();
  });

  it('rejects a missing or wrong attribute list, naming the field', () => {
    expect(() => { load(undefined); }).toThrow(/plugins\[0\]\.parameters/);
    expect(() => { load('{attributes: []}'); }).toThrow(/attributes.*exactly one entry/);
    expect(() => { load('{attributes: [{key: {name: a}, expression: "1"}, {key: {name: b}, expression: "2"}]}'); }).toThrow(/attributes.*exactly one entry/);
    expect(() => { load('{attributes: [{key: {name: ""}, expression: "1"}]}'); }).toThrow(/attributes\.0\.key\.name|attributes\[0\]\.key\.name/);
    expect(() => { load('{attributes: [{key: {name: a}}]}'); }).toThrow(/expression/);
    expect(() => { load('{attributes: [{key: {name: a}, expression: ""}]}'); }).toThrow(/expression cannot be empty/);
  });

  it('rejects unknown parameters, naming them', () => {
    expect(() => { load('{attributes: [{key: {name: a}, expression: "1"}], extra: 1}'); }).toThrow(/extra/);
    expect(() => { load('{attributes: [{key: {name: a, nmespace: x}, expression: "1"}]}'); }).toThrow(/nmespace/);
    expect(() => { load('{attributes: [{key: {name: a}, expresion: "1"}]}'); }).toThrow(/expresion/);
  });

  it('rejects an expression or condition that does not compile, naming which', () => {
    expect(() => { load('{attributes: [{key: {name: a}, expression: "usage.prompt_tokens + -"}]}'); }).toThrow(/attributes.*expression.*not a CEL expression/s);
    expect(() => { load('{attributes: [{key: {name: a}, expression: usage.prompt_tokens, condition: "usage.prompt_tokens > "}]}'); }).toThrow(/attributes.*condition.*not a CEL expression/s);
    expect(() => { load('{attributes: [{key: {name: a}, expression: "requests + 1"}]}'); }).toThrow(/expression.*CEL type error/s);
    expect(() => { load('{attributes: [{key: {name: a}, expression: "1 + \'a\'"}]}'); }).toThrow(/expression.*CEL type error/s);
  });
});

describe('compileUsageExpression', () => {
  it('property: any text either compiles or throws a plain Error, and evaluation never escapes the hook', () => {
    const hookFor = (expression: string) => instantiate(requestAttributeReporterPlugin, { attributes: [cost(expression)] }) as unknown as RequestLifecycle;
    const celish = fc.stringMatching(/^[a-z_.()+\-*/<>=!?:&|'"0-9 [\]{},]{0,40}$/);
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 40 }), celish), fc.nat(1000), fc.nat(1000), (text, p, c) => {
      let compiled = true;
      try {
        compileUsageExpression(text);
      } catch (error) {
        compiled = false;
        expect(error).toBeInstanceOf(Error);
      }
      if (!compiled || text.trim() === '') return;
      const dynamicMetadata: ResponseMetadata = {};
      expect(() => hookFor(text).onResponseBody?.(schedulingRequest(), { endpoint: endpoint!, usage: usage(p, c), dynamicMetadata })).not.toThrow();
      for (const value of Object.values(dynamicMetadata['envoy.lb'] ?? {})) expect(Number.isInteger(value) && value !== 0 && value !== -1).toBe(true);
    }), { numRuns: 300 });
  });
});
