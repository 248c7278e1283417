/*
 * llm-d's parser types beyond the default four, configured in `requestHandler.parsers` and loaded
 * by both `switchyard-epp` and `switchyard-gateway` through their CLI entry points.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelServer, loadErrorOf, throughEpp, throughGateway, withConfigFile } from './support/both-clis.js';

const SGLANG_ANSWER = '{"text":"ok","output_ids":[7],"meta_info":{"id":"r","finish_reason":{"type":"stop"},"prompt_tokens":3,"completion_tokens":1}}';
const server = new ModelServer((_path, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(SGLANG_ANSWER));

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';

describe('sglanghttp-parser', () => {
  const config = `${HEAD}plugins:\n- type: sglanghttp-parser\n- type: queue-scorer\nrequestHandler:\n  parsers:\n  - pluginRef: sglanghttp-parser\n  - pluginRef: passthrough-parser\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: queue-scorer\n`;
  const generate = { path: '/generate', body: '{"input_ids":[1,2,3],"sampling_params":{"max_new_tokens":4},"extra_key":"tenant"}' };

  it('routes SGLang /generate through both CLIs, forwarding the body as sent', async () => {
    await withConfigFile(config, async (file) => {
      expect(await throughEpp(file, server.address, generate)).toEqual({ destination: server.address });
      const viaGateway = await throughGateway(file, server.address, generate);
      expect(viaGateway).toEqual({ status: 200, body: SGLANG_ANSWER });
      expect(server.received.at(-1)).toMatchObject({ path: '/generate', body: generate.body });
    });
  });

  it("answers 400 naming the field for what llm-d rejects, in both CLIs", async () => {
    await withConfigFile(config, async (file) => {
      const bad = { path: '/generate', body: '{"input_ids":[]}' };
      expect(await throughEpp(file, server.address, bad)).toEqual({ status: 400 });
      const viaGateway = await throughGateway(file, server.address, bad);
      expect(viaGateway.status).toBe(400);
      expect(viaGateway.body).toContain('input_ids cannot be empty');
    });
  });

  it('takes no parameters: an unknown one fails the load in both, naming it', async () => {
    const errors = await loadErrorOf(`${HEAD}plugins:\n- type: sglanghttp-parser\n  parameters:\n    headerName: x\n- type: queue-scorer\n`, server.address);
    expect(errors.epp).toMatch(/headerName/);
    expect(errors.gateway).toMatch(/headerName/);
  });
});

describe('vertexai-parser', () => {
  const config = `${HEAD}plugins:\n- type: vertexai-parser\n- type: queue-scorer\nrequestHandler:\n  parsers:\n  - pluginRef: vertexai-parser\n  - pluginRef: passthrough-parser\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: queue-scorer\n`;
  /** `ChatCompletionsRequest { http_body = 2 { data = 2 } }` in a gRPC frame (one-byte lengths). */
  const framed = (json: string): string => {
    const httpBody = `\u0012${String.fromCharCode(json.length)}${json}`;
    const message = `\u0012${String.fromCharCode(httpBody.length)}${httpBody}`;
    return `\u0000\u0000\u0000\u0000${String.fromCharCode(message.length)}${message}`;
  };
  const path = '/google.cloud.aiplatform.v1beta1.PredictionService/ChatCompletions';
  const headers = { 'content-type': 'application/grpc' };

  // The HTTP gateway serves HTTP/1.1 on its fixed inference paths; gRPC (h2c, the only protocol
  // llm-d's parser claims) reaches a Switchyard through Envoy and switchyard-epp.
  it('routes a wrapped chat request through switchyard-epp; switchyard-gateway loads the config', async () => {
    const probe = { path, headers, body: framed('{"model":"m","messages":[{"role":"user","content":"hi"}]}') };
    await withConfigFile(config, async (file) => {
      expect(await throughEpp(file, server.address, probe)).toEqual({ destination: server.address });
      expect((await throughGateway(file, server.address, { path: '/v1/completions', body: '{"model":"m","prompt":"x"}' })).status).toBe(200);
    });
  });

  it('answers 400 for a frame without an HttpBody', async () => {
    const probe = { path, headers, body: '\u0000\u0000\u0000\u0000\u0000' };
    await withConfigFile(config, async (file) => {
      expect(await throughEpp(file, server.address, probe)).toEqual({ status: 400 });
    });
  });

  it('takes no parameters: an unknown one fails the load in both, naming it', async () => {
    const errors = await loadErrorOf(`${HEAD}plugins:\n- type: vertexai-parser\n  parameters:\n    project: x\n- type: queue-scorer\n`, server.address);
    expect(errors.epp).toMatch(/project/);
    expect(errors.gateway).toMatch(/project/);
  });
});
