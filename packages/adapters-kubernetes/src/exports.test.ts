import { describe, expect, it } from 'vitest';
import * as root from '@switchyard/kubernetes';

// The root lists its names one by one; selector, pod and port helpers are not API. The flag table
// stays public: both adapters' CLIs declare their Kubernetes flags from it.
describe('@switchyard/kubernetes root exports', () => {
  it('keeps the selector and pod helpers out of the public root', () => {
    const helpers = ['parseLabelSelector', 'matchesLabels', 'podEndpoints', 'isPodReady', 'activePorts', 'checkTargetPorts', 'sameSelection', 'isKubeApiError', 'objectivesGroup'];
    expect(helpers.filter((name) => name in root)).toEqual([]);
  });

  it('exports what both CLIs load and the examples use', () => {
    for (const name of ['startKubernetes', 'parseKubernetesFlags', 'KubernetesMetrics', 'BaseModelMap', 'baseModelHeaderPack', 'httpEndpointProbe', 'poolSpecFromObject', 'parseModelMapping', 'eppLeaseName']) {
      expect(typeof (root as Record<string, unknown>)[name], name).toBe('function');
    }
  });
});
