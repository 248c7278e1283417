import { SwitchyardError, durationOrError } from '@switchyard/core';
import type { KubernetesOptions } from '../start/start-kubernetes.js';

/**
 * The discovery and leader-election flags both CLIs accept, with llm-d's names, as
 * `node:util` `parseArgs` option definitions (merge them into the CLI's own).
 * @public
 */
export const KUBERNETES_CLI_OPTIONS = {
  'pool-name': { type: 'string' },
  'pool-namespace': { type: 'string' },
  'pool-group': { type: 'string' },
  'endpoint-selector': { type: 'string' },
  'endpoint-target-ports': { type: 'string' },
  kubeconfig: { type: 'string' },
  'ha-enable-leader-election': { type: 'boolean' },
  'drain-timeout': { type: 'string' },
} as const;

/** Usage lines of {@link KUBERNETES_CLI_OPTIONS}. @public */
export const KUBERNETES_CLI_USAGE = `Kubernetes discovery (llm-d's flags; needs @kubernetes/client-node):
  --pool-name NAME          follow this InferencePool (inference.networking.k8s.io/v1)
  --pool-namespace NS       namespace of the pool, its pods, objectives and the Lease
                            (default: $NAMESPACE, then the kubeconfig context, then default)
  --pool-group GROUP        InferencePool API group (default inference.networking.k8s.io)
  --endpoint-selector SEL   instead of a pool: select model-server pods by label selector
  --endpoint-target-ports P comma-separated ports (1-8) with --endpoint-selector
  --kubeconfig FILE         kubeconfig (default: $KUBECONFIG, ~/.kube/config, in-cluster)
  --ha-enable-leader-election
                            elect a leader on Lease epp-<ns>-<pool>.llm-d.ai; readiness is
                            SERVING only on the leader, standbys keep routing
  --drain-timeout D         on SIGTERM: NOT_SERVING and release the Lease at once, keep
                            serving this long (default 30s)
`;

/**
 * The parsed flags: undefined when no discovery flag was given (static endpoints).
 * @public
 */
export interface KubernetesCliFlags {
  /** Options for {@link startKubernetes} without the pool and stores. */
  readonly discovery: Omit<KubernetesOptions, 'pool' | 'objectives' | 'rewrites'>;
  /** `--drain-timeout` in ms. */
  readonly drainTimeoutMs: number;
}

/** Parsed command-line values by flag name (what `parseArgs` returns). @public */
export type KubernetesCliValues = Readonly<Record<string, string | boolean | undefined>>;

const str = (v: KubernetesCliValues, k: string): string | undefined => (typeof v[k] === 'string' ? v[k] : undefined);

function ports(raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  return raw.split(',').map((p) => {
    const n = Number(p.trim());
    if (p.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535) throw new SwitchyardError('CONFIG_INVALID', `--endpoint-target-ports: "${p}" is not a port in 0..65535`);
    return n;
  });
}

/**
 * Reads the flags of {@link KUBERNETES_CLI_OPTIONS} from parsed values. Returns undefined when
 * neither `--pool-name` nor `--endpoint-selector` is set (and rejects the other flags then).
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad flag
 * @public
 */
export function parseKubernetesFlags(values: KubernetesCliValues): KubernetesCliFlags | undefined {
  const poolName = str(values, 'pool-name');
  const selector = str(values, 'endpoint-selector');
  const drain = str(values, 'drain-timeout');
  const drainMs = durationOrError(drain ?? '30s');
  if (typeof drainMs === 'string') throw new SwitchyardError('CONFIG_INVALID', `--drain-timeout: ${drainMs}`);
  if (poolName === undefined && selector === undefined) {
    const stray = Object.keys(KUBERNETES_CLI_OPTIONS).filter((k) => values[k] !== undefined && k !== 'drain-timeout');
    if (stray.length > 0) throw new SwitchyardError('CONFIG_INVALID', `--${stray[0] ?? ''}: needs --pool-name or --endpoint-selector`);
    return undefined;
  }
  if (poolName !== undefined && selector !== undefined) throw new SwitchyardError('CONFIG_INVALID', '--pool-name and --endpoint-selector: give exactly one');
  if (selector !== undefined && str(values, 'endpoint-target-ports') === undefined) throw new SwitchyardError('CONFIG_INVALID', '--endpoint-target-ports: required with --endpoint-selector');
  return {
    discovery: {
      poolName,
      poolNamespace: str(values, 'pool-namespace'),
      poolGroup: str(values, 'pool-group'),
      endpointSelector: selector,
      endpointTargetPorts: ports(str(values, 'endpoint-target-ports')),
      kubeconfig: str(values, 'kubeconfig'),
      leaderElection: values['ha-enable-leader-election'] === true,
    },
    drainTimeoutMs: drainMs,
  };
}
