import { SwitchyardError, durationOrError } from '@switchyard/core';
import type { KubernetesOptions } from '../start/start-kubernetes.js';
import { KUBERNETES_FLAGS } from './flag-definitions.js';

/**
 * The parsed flags: undefined when no discovery flag was given (static endpoints).
 * @public
 * @category CLI flags
 */
export interface KubernetesCliFlags {
  /** Options for {@link startKubernetes} without the pool and stores. */
  readonly discovery: Omit<KubernetesOptions, 'pool' | 'objectives' | 'rewrites' | 'modelMappings'>;
  /** `--drain-timeout` in ms. */
  readonly drainTimeoutMs: number;
}

/**
 * Parsed command-line values by flag name (what `parseArgs` returns). @public
 * @category CLI flags
 */
export type KubernetesCliValues = Readonly<Record<string, string | boolean | undefined>>;

const str = (v: KubernetesCliValues, k: string): string | undefined => (typeof v[k] === 'string' ? v[k] : undefined);

function duration(values: KubernetesCliValues, flag: string, fallback: string): number {
  const ms = durationOrError(str(values, flag) ?? fallback);
  if (typeof ms === 'string') throw new SwitchyardError('CONFIG_INVALID', `--${flag}: ${ms}`);
  return ms;
}

/** client-go's checks of the election timings (`NewLeaderElector`), on the flags that set them. */
function leaseTimings(values: KubernetesCliValues): { durationMs: number; renewDeadlineMs: number; retryPeriodMs: number } {
  const durationMs = duration(values, 'ha-lease-duration', '15s');
  const renewDeadlineMs = duration(values, 'ha-renew-deadline', '10s');
  const retryPeriodMs = duration(values, 'ha-retry-period', '2s');
  if (retryPeriodMs <= 0) throw new SwitchyardError('CONFIG_INVALID', '--ha-retry-period: must be greater than zero');
  if (durationMs < 1000) throw new SwitchyardError('CONFIG_INVALID', '--ha-lease-duration: must be at least 1s (the Lease stores whole seconds)');
  if (renewDeadlineMs >= durationMs) throw new SwitchyardError('CONFIG_INVALID', `--ha-renew-deadline: must be less than --ha-lease-duration (${String(renewDeadlineMs)} ms ≥ ${String(durationMs)} ms)`);
  if (renewDeadlineMs <= 1.2 * retryPeriodMs) throw new SwitchyardError('CONFIG_INVALID', `--ha-renew-deadline: must be greater than 1.2 × --ha-retry-period (${String(renewDeadlineMs)} ms ≤ ${String(1.2 * retryPeriodMs)} ms)`);
  return { durationMs, renewDeadlineMs, retryPeriodMs };
}

function ports(raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  return raw.split(',').map((p) => {
    const n = Number(p.trim());
    if (p.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535) throw new SwitchyardError('CONFIG_INVALID', `--endpoint-target-ports: "${p}" is not a port in 0..65535`);
    return n;
  });
}

/**
 * Reads the flags of the flag table (`KUBERNETES_FLAGS`) from parsed values. Returns undefined when
 * neither `--pool-name` nor `--endpoint-selector` is set (and rejects the other flags then).
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad flag
 * @public
 * @category CLI flags
 */
export function parseKubernetesFlags(values: KubernetesCliValues): KubernetesCliFlags | undefined {
  const poolName = str(values, 'pool-name');
  const selector = str(values, 'endpoint-selector');
  const drainMs = duration(values, 'drain-timeout', '30s');
  if (poolName === undefined && selector === undefined) {
    const stray = KUBERNETES_FLAGS.map((f) => f.name).filter((k) => values[k] !== undefined && k !== 'drain-timeout');
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
      lease: leaseTimings(values),
    },
    drainTimeoutMs: drainMs,
  };
}
