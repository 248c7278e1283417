import { SwitchyardError } from '@switchyard/core';
import { formatLabelSelector, selectorFromMatchLabels } from '../selectors/label-selector.js';
import type { InferencePoolObject } from '../resources/types.js';
import type { PoolSpec } from './pod-endpoints.js';

/**
 * The InferencePool API group Switchyard follows (`--pool-group`). @public
 * @category Discovery
 */
export const INFERENCE_POOL_GROUP = 'inference.networking.k8s.io';

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('CONFIG_INVALID', message);
}

/**
 * Checks 1–8 unique ports in 1..65535, as the InferencePool CRD and `--endpoint-target-ports` require.
 * @throws SwitchyardError `CONFIG_INVALID` naming `where`
 * @public
 */
export function checkTargetPorts(ports: readonly number[], where: string): number[] {
  if (ports.length < 1 || ports.length > 8) throw invalid(`${where}: expected 1 to 8 ports, got ${String(ports.length)}`);
  for (const p of ports) if (!Number.isInteger(p) || p < 1 || p > 65535) throw invalid(`${where}: port ${String(p)} is not an integer in 1..65535`);
  if (new Set(ports).size !== ports.length) throw invalid(`${where}: ports must be unique`);
  return [...ports];
}

/**
 * Reads an InferencePool object into the selector, ranked ports and app protocol discovery uses.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad field
 * @public
 * @category Discovery
 */
export function poolSpecFromObject(pool: InferencePoolObject, namespace: string): PoolSpec {
  const name = pool.metadata?.name ?? '';
  const where = `InferencePool ${namespace}/${name}`;
  const matchLabels = pool.spec?.selector?.matchLabels;
  if (matchLabels === undefined || Object.keys(matchLabels).length === 0) throw invalid(`${where}: spec.selector.matchLabels is required`);
  const ports = (pool.spec?.targetPorts ?? []).map((p) => p.number);
  const appProtocol = pool.spec?.appProtocol;
  if (appProtocol !== undefined && appProtocol !== 'http' && appProtocol !== 'kubernetes.io/h2c') throw invalid(`${where}: spec.appProtocol must be http or kubernetes.io/h2c, got "${appProtocol}"`);
  return { namespace, name, selector: selectorFromMatchLabels(matchLabels), targetPorts: checkTargetPorts(ports, `${where}: spec.targetPorts`), appProtocol };
}

/** True when two specs select the same pods on the same ports (anything else needs a relist). @public */
export function sameSelection(a: PoolSpec | undefined, b: PoolSpec | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return formatLabelSelector(a.selector) === formatLabelSelector(b.selector) && a.targetPorts.join(',') === b.targetPorts.join(',');
}
