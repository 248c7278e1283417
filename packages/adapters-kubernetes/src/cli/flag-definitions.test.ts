import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EPP_USAGE, parseEppArgs } from '../../../adapters-envoy/src/cli/args.js';
import { GATEWAY_USAGE, parseGatewayArgs } from '../../../adapters-express/src/cli/args.js';
import { KUBERNETES_FLAGS, kubernetesCliUsage, kubernetesFlagTable } from './flag-definitions.js';
import { parseKubernetesFlags } from './kubernetes-flags.js';

const DOC = fileURLToPath(new URL('../../../../docs/kubernetes.md', import.meta.url));
const BEGIN = '<!-- kubernetes-flags:begin (generated from KUBERNETES_FLAGS) -->\n';
const END = '<!-- kubernetes-flags:end -->';

// Both CLIs parse and print the flags from KUBERNETES_FLAGS; the docs table is generated from it.
describe('KUBERNETES_FLAGS is the one definition of the Kubernetes flags', () => {
  const sample = (f: (typeof KUBERNETES_FLAGS)[number]): string[] => (f.type === 'boolean' ? [`--${f.name}`] : [`--${f.name}`, 'v']);

  it('is what switchyard-epp and switchyard-gateway parse, each only its own flags', () => {
    for (const f of KUBERNETES_FLAGS) {
      const epp = (): unknown => parseEppArgs(sample(f)).kubernetes;
      const gateway = (): unknown => parseGatewayArgs(sample(f)).kubernetes;
      const value = f.type === 'boolean' ? true : 'v';
      if (f.clis.includes('epp')) expect(epp(), `switchyard-epp --${f.name}`).toEqual({ [f.name]: value });
      else expect(epp, `switchyard-epp rejects --${f.name}`).toThrow(/Unknown option/);
      if (f.clis.includes('gateway')) expect(gateway(), `switchyard-gateway --${f.name}`).toEqual({ [f.name]: value });
      else expect(gateway, `switchyard-gateway rejects --${f.name}`).toThrow(/Unknown option/);
    }
  });

  it('is what their --help prints', () => {
    expect(EPP_USAGE).toContain(kubernetesCliUsage('epp'));
    expect(GATEWAY_USAGE).toContain(kubernetesCliUsage('gateway'));
    for (const f of KUBERNETES_FLAGS) {
      expect(EPP_USAGE.includes(`--${f.name}`)).toBe(f.clis.includes('epp'));
      expect(GATEWAY_USAGE.includes(`--${f.name}`)).toBe(f.clis.includes('gateway'));
    }
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
