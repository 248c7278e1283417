/*
 * llm-d's request-attribute-reporter through switchyard-epp: Envoy receives the CEL-computed
 * value as dynamic metadata on the last response-body reply (e.g. a cost for its rate limiter).
 */
import { describe, expect, it } from 'vitest';
import { runGatewayCli } from '@switchyard/express';
import { structToJson } from '../packages/adapters-envoy/src/wire/struct.js';
import type { ProcessingRequest, ProcessingResponse } from '../packages/adapters-envoy/src/wire/messages.js';
import { describeReplies, reqBody, reqHeaders, respBody, respHeaders } from '../packages/adapters-envoy/src/test-support/wire-helpers.js';
import { completionServerForFile, startEppCli, withConfigFile, type RunningEppCli } from './support/both-clis.js';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';
const REPORTER = `${HEAD}plugins:
- name: total-tokens-cost-reporter
  type: request-attribute-reporter
  parameters:
    attributes:
    - key:
        name: x-gateway-inference-request-cost
      expression: usage.prompt_tokens + usage.completion_tokens
      condition: has(usage.prompt_tokens) && has(usage.completion_tokens)
- type: queue-scorer
`;
const BODY = '{"model":"m","prompt":"x"}';
const JSON_RESPONSE = '{"id":"c","choices":[{"text":"hi"}],"usage":{"prompt_tokens":7,"completion_tokens":10,"total_tokens":17}}';

const server = completionServerForFile();

/** One request through switchyard-epp; `response` are the response messages Envoy sends after the headers. */
async function exchange(epp: RunningEppCli, contentType: string, response: readonly ProcessingRequest[]): Promise<ProcessingResponse[]> {
  const s = epp.envoy.open();
  s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/completions', 'content-type': 'application/json' }));
  s.send(reqBody(BODY, true));
  await s.waitFor(2);
  s.send(respHeaders({ ':status': '200', 'content-type': contentType }));
  for (const m of response) s.send(m);
  const replies = await s.waitFor(3 + response.length);
  s.cancel();
  await s.ended;
  return replies.slice(2);
}

const metadataOf = (replies: readonly ProcessingResponse[]) => replies.map((r) => (r.dynamic_metadata === undefined ? undefined : structToJson(r.dynamic_metadata)));

describe('request-attribute-reporter through switchyard-epp', () => {
  it('a JSON response: the cost rides on the last body reply as envoy.lb metadata, a number', async () => {
    await withConfigFile(REPORTER, async (file) => {
      const epp = await startEppCli(['--config', file, '--endpoints', server.address]);
      try {
        const half = Math.floor(JSON_RESPONSE.length / 2);
        const replies = await exchange(epp, 'application/json', [respBody(JSON_RESPONSE.slice(0, half), false), respBody(JSON_RESPONSE.slice(half), true)]);
        expect(describeReplies(replies)).toEqual(['response_headers', `response_body(${half})`, `response_body(${JSON_RESPONSE.length - half},eos)`]);
        expect(metadataOf(replies)).toEqual([undefined, undefined, { 'envoy.lb': { 'x-gateway-inference-request-cost': 17 } }]);
        expect(replies.at(-1)?.dynamic_metadata?.fields?.['envoy.lb']?.structValue?.fields?.['x-gateway-inference-request-cost']).toMatchObject({ kind: 'numberValue', numberValue: 17 });
      } finally {
        await epp.close();
      }
    });
  });

  it('an SSE stream: chunks pass 1:1 and the usage chunk’s cost rides on the final reply', async () => {
    await withConfigFile(REPORTER, async (file) => {
      const epp = await startEppCli(['--config', file, '--endpoints', server.address]);
      try {
        const replies = await exchange(epp, 'text/event-stream', [
          respBody('data: {"choices":[{"text":"a"}]}\n\n', false),
          respBody('data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}\n\ndata: [DONE]\n\n', false),
          respBody('', true),
        ]);
        expect(metadataOf(replies)).toEqual([undefined, undefined, undefined, { 'envoy.lb': { 'x-gateway-inference-request-cost': 7 } }]);
      } finally {
        await epp.close();
      }
    });
  });

  it('a response with trailers (gRPC-style): the cost rides on the trailers reply, the last one', async () => {
    await withConfigFile(REPORTER, async (file) => {
      const epp = await startEppCli(['--config', file, '--endpoints', server.address]);
      try {
        const replies = await exchange(epp, 'application/json', [respBody(JSON_RESPONSE, false), { response_trailers: { trailers: { headers: [] } } }]);
        expect(describeReplies(replies)).toEqual(['response_headers', `response_body(${JSON_RESPONSE.length})`, 'response_trailers']);
        expect(metadataOf(replies)).toEqual([undefined, undefined, { 'envoy.lb': { 'x-gateway-inference-request-cost': 17 } }]);
      } finally {
        await epp.close();
      }
    });
  });

  it('no usage in the response: the sum is 0, so no metadata (as llm-d)', async () => {
    await withConfigFile(REPORTER, async (file) => {
      const epp = await startEppCli(['--config', file, '--endpoints', server.address]);
      try {
        const replies = await exchange(epp, 'application/json', [respBody('{"choices":[]}', true)]);
        expect(metadataOf(replies)).toEqual([undefined, undefined]);
      } finally {
        await epp.close();
      }
    });
  });

  it('a bad expression stops switchyard-epp at load, naming the field', async () => {
    const bad = REPORTER.replace('usage.prompt_tokens + usage.completion_tokens', '"usage.prompt_tokens +"');
    await withConfigFile(bad, async (file) => {
      await expect(startEppCli(['--config', file, '--endpoints', server.address])).rejects.toThrow(/attributes\[0\]\.expression.*not a CEL expression/);
    });
  });

  it('switchyard-gateway loads the same config and serves (it has no proxy to hand metadata to)', async () => {
    await withConfigFile(REPORTER, async (file) => {
      const r = await runGatewayCli(['--config', file, '--endpoints', server.address, '--host', '127.0.0.1', '--port', '0', '--log-level', 'silent'], { out: () => undefined, err: () => undefined });
      if (r.kind !== 'running') throw new Error(`switchyard-gateway exited with ${r.code}`);
      try {
        const res = await fetch(`${r.url}/v1/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
        await res.text();
        expect(res.status).toBe(200);
      } finally {
        await r.gateway.close();
      }
    });
  });
});
