/*
 * llm-d's latency-slo-admitter in a config both CLIs load with its parameter, and route through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelServer, loadErrorOf, throughEpp, throughGateway, withConfigFile } from './support/both-clis.js';

const ANSWER = '{"id":"x","object":"text_completion","model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1}}';
const server = new ModelServer((_path, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER));
beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';

describe('latency-slo-admitter', () => {
  it('loads with latencyPredictionInfoProducerName in both CLIs and admits a request it has no prediction for', async () => {
    const yaml = `${HEAD}plugins:\n- type: latency-slo-admitter\n  parameters:\n    latencyPredictionInfoProducerName: predicted-latency-producer\n- type: queue-scorer\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: queue-scorer\n`;
    const probe = { path: '/v1/completions', body: '{"model":"m","prompt":"hello"}', headers: { 'x-llm-d-slo-ttft-ms': '50' } };
    await withConfigFile(yaml, async (file) => {
      expect(await throughEpp(file, server.address, probe)).toEqual({ destination: server.address });
      expect(await throughGateway(file, server.address, probe)).toEqual({ status: 200, body: ANSWER });
    });
  });

  it('rejects an unknown parameter in both, naming it', async () => {
    const errors = await loadErrorOf(`${HEAD}plugins:\n- type: latency-slo-admitter\n  parameters:\n    latencyPredictionProducerName: x\n- type: queue-scorer\n`, server.address);
    expect(errors.epp).toMatch(/latencyPredictionProducerName/);
    expect(errors.gateway).toMatch(/latencyPredictionProducerName/);
  });
});
