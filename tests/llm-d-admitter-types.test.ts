/*
 * llm-d's latency-slo-admitter in a config both CLIs load with its parameter, and route through.
 */
import { describe, expect, it } from 'vitest';
import { COMPLETION_REPLY, completionServerForFile, loadErrorOf, throughEpp, throughGateway, withConfigFile } from './support/both-clis.js';

const server = completionServerForFile();

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';

describe('latency-slo-admitter', () => {
  it('loads with latencyPredictionInfoProducerName in both CLIs and admits a request it has no prediction for', async () => {
    const yaml = `${HEAD}plugins:\n- type: latency-slo-admitter\n  parameters:\n    latencyPredictionInfoProducerName: predicted-latency-producer\n- type: queue-scorer\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: queue-scorer\n`;
    const probe = { path: '/v1/completions', body: '{"model":"m","prompt":"hello"}', headers: { 'x-llm-d-slo-ttft-ms': '50' } };
    await withConfigFile(yaml, async (file) => {
      expect(await throughEpp(file, server.address, probe)).toEqual({ destination: server.address });
      expect(await throughGateway(file, server.address, probe)).toEqual({ status: 200, body: COMPLETION_REPLY });
    });
  });

  it('rejects an unknown parameter in both, naming it', async () => {
    const errors = await loadErrorOf(`${HEAD}plugins:\n- type: latency-slo-admitter\n  parameters:\n    latencyPredictionProducerName: x\n- type: queue-scorer\n`, server.address);
    expect(errors.epp).toMatch(/latencyPredictionProducerName/);
    expect(errors.gateway).toMatch(/latencyPredictionProducerName/);
  });
});
