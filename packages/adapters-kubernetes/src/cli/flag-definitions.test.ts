import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EPP_USAGE } from '../../../adapters-envoy/src/cli/args.js';
import { EPP_KUBERNETES_FLAGS, EPP_KUBERNETES_USAGE } from '../../../adapters-envoy/src/cli/kubernetes.js';
import { GATEWAY_USAGE } from '../../../adapters-express/src/cli/args.js';
import { GATEWAY_KUBERNETES_FLAGS, GATEWAY_KUBERNETES_USAGE } from '../../../adapters-express/src/cli/kubernetes.js';
import { KUBERNETES_FLAGS, kubernetesCliOptions, kubernetesCliUsage, kubernetesFlagTable } from './flag-definitions.js';
import { parseKubernetesFlags } from './kubernetes-flags.js';

const DOC = fileURLToPath(new URL('../../../../docs/kubernetes.md', import.meta.url));
const BEGIN = '<!-- kubernetes-flags:begin (generated from KUBERNETES_FLAGS) -->\n';
const END = '<!-- kubernetes-flags:end -->';

// The CLIs keep their own copy of the flags so they parse without the optional package; these
// checks make KUBERNETES_FLAGS the one source that copy, --help and the docs follow.
describe('KUBERNETES_FLAGS is the one definition of the Kubernetes flags', () => {
  it('matches what switchyard-epp and switchyard-gateway parse', () => {
    expect(EPP_KUBERNETES_FLAGS).toEqual(kubernetesCliOptions('epp'));
    expect(GATEWAY_KUBERNETES_FLAGS).toEqual(kubernetesCliOptions('gateway'));
  });

  it('matches what their --help prints', () => {
    expect(EPP_KUBERNETES_USAGE).toBe(kubernetesCliUsage('epp'));
    expect(GATEWAY_KUBERNETES_USAGE).toBe(kubernetesCliUsage('gateway'));
    expect(EPP_USAGE).toContain(EPP_KUBERNETES_USAGE);
    expect(GATEWAY_USAGE).toContain(GATEWAY_KUBERNETES_USAGE);
    for (const f of KUBERNETES_FLAGS) expect(f.clis.includes('epp') ? EPP_USAGE : GATEWAY_USAGE).toContain(`--${f.name}`);
  });

  it('matches the table in docs/kubernetes.md (UPDATE_K8S_FLAGS=1 rewrites it)', async () => {
    const doc = await readFile(DOC, 'utf8');
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(start, 'docs/kubernetes.md has the generated-table markers').toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const table = kubernetesFlagTable();
    if (process.env.UPDATE_K8S_FLAGS === '1') await writeFile(DOC, doc.slice(0, start + BEGIN.length) + table + doc.slice(end));
    else expect(doc.slice(start + BEGIN.length, end)).toBe(table);
  });

  it('every flag is read by parseKubernetesFlags (none is declared and then ignored)', () => {
    const base = { 'pool-name': 'chat' };
    const plain = parseKubernetesFlags(base);
    const samples: Record<string, string | boolean> = {
      'pool-namespace': 'llm', 'pool-group': 'inference.networking.k8s.io', kubeconfig: 'kc', 'ha-enable-leader-election': true,
      'ha-lease-duration': '20s', 'ha-renew-deadline': '5s', 'ha-retry-period': '1s', 'drain-timeout': '5s',
    };
    for (const f of KUBERNETES_FLAGS) {
      if (f.name === 'pool-name' || f.name === 'endpoint-selector' || f.name === 'endpoint-target-ports') continue;
      const value = samples[f.name];
      expect(value, `a sample value for --${f.name}`).toBeDefined();
      expect(parseKubernetesFlags({ ...base, [f.name]: value }), `--${f.name} changes the result`).not.toEqual(plain);
    }
  });
});

describe('parseKubernetesFlags: lease timings', () => {
  it('defaults to controller-runtime\'s 15s / 10s / 2s', () => {
    expect(parseKubernetesFlags({ 'pool-name': 'p' })?.discovery.lease).toEqual({ durationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 });
  });

  it('takes shorter timings and rejects the combinations client-go rejects, naming the flag', () => {
    expect(parseKubernetesFlags({ 'pool-name': 'p', 'ha-lease-duration': '3s', 'ha-renew-deadline': '2s', 'ha-retry-period': '250ms' })?.discovery.lease).toEqual({ durationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 250 });
    expect(() => parseKubernetesFlags({ 'pool-name': 'p', 'ha-renew-deadline': '15s' })).toThrow(/--ha-renew-deadline: must be less than --ha-lease-duration/);
    expect(() => parseKubernetesFlags({ 'pool-name': 'p', 'ha-retry-period': '9s' })).toThrow(/--ha-renew-deadline: must be greater than 1.2 × --ha-retry-period/);
    expect(() => parseKubernetesFlags({ 'pool-name': 'p', 'ha-retry-period': '0s' })).toThrow(/--ha-retry-period: must be greater than zero/);
    expect(() => parseKubernetesFlags({ 'pool-name': 'p', 'ha-lease-duration': '500ms', 'ha-renew-deadline': '400ms', 'ha-retry-period': '100ms' })).toThrow(/--ha-lease-duration: must be at least 1s/);
    expect(() => parseKubernetesFlags({ 'pool-name': 'p', 'ha-lease-duration': 'soon' })).toThrow(/--ha-lease-duration: expected a duration/);
    expect(() => parseKubernetesFlags({ 'ha-lease-duration': '3s' })).toThrow(/--ha-lease-duration: needs --pool-name or --endpoint-selector/);
  });
});
