/*
 * llm-d's eviction plugin types in a config both CLIs load: listed in `plugins` with
 * `flowControl.enableEviction`, they start switchyard-epp and switchyard-gateway and route.
 */
import { describe, expect, it } from 'vitest';
import { COMPLETION_REPLY, completionServerForFile, loadErrorOf, throughEpp, throughGateway, withConfigFile } from './support/both-clis.js';

const server = completionServerForFile();

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\nfeatureGates:\n- flowControl\n';
const probe = { path: '/v1/completions', body: '{"model":"m","prompt":"hello"}' };

describe('sheddable-eviction-filter and priority-then-time-eviction-order-policy', () => {
  it('load with flowControl.enableEviction in both CLIs and route a request', async () => {
    const yaml = `${HEAD}plugins:\n- type: sheddable-eviction-filter\n- type: priority-then-time-eviction-order-policy\n- type: queue-scorer\nflowControl:\n  enableEviction: true\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: queue-scorer\n`;
    await withConfigFile(yaml, async (file) => {
      expect(await throughEpp(file, server.address, probe)).toEqual({ destination: server.address });
      expect(await throughGateway(file, server.address, probe)).toEqual({ status: 200, body: COMPLETION_REPLY });
    });
  });

  it('take no parameters: an unknown one fails the load in both, naming it', async () => {
    const errors = await loadErrorOf(`${HEAD}plugins:\n- type: sheddable-eviction-filter\n  parameters:\n    minPriority: -1\n- type: queue-scorer\n`, server.address);
    expect(errors.epp).toMatch(/minPriority/);
    expect(errors.gateway).toMatch(/minPriority/);
  });
});
