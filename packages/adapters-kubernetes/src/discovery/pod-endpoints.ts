import { type EndpointSpec } from '@switchyard/core';
import { joinHostPort } from '@switchyard/core/internal';
import { matchesLabels, type LabelSelector } from '../selectors/label-selector.js';
import type { PodObject } from '../resources/types.js';

/**
 * Annotation narrowing which target ports of a pod are live (comma list). @public
 * @category Discovery
 */
export const ACTIVE_PORTS_ANNOTATION = 'llm-d.ai/active-ports';
/**
 * The older key of {@link ACTIVE_PORTS_ANNOTATION}. @public
 * @category Discovery
 */
export const ACTIVE_PORTS_ANNOTATION_LEGACY = 'inference.networking.k8s.io/active-ports';

/**
 * What a pool selects and serves: from an InferencePool's spec, or synthesised from
 * `--endpoint-selector` and `--endpoint-target-ports`.
 * @public
 * @category Discovery
 */
export interface PoolSpec {
  /** Namespace of the pool and its pods. */
  readonly namespace: string;
  /** Pool name (the Lease and objectives' `poolRef` use it). */
  readonly name: string;
  /** Pods that belong to the pool. */
  readonly selector: LabelSelector;
  /** 1–8 ports; the index of a port is its rank. */
  readonly targetPorts: readonly number[];
  /** `http` (default) or `kubernetes.io/h2c`; undefined when the pool does not say. */
  readonly appProtocol?: string | undefined;
}

/**
 * True when the pod is an endpoint candidate: no deletionTimestamp, condition `Ready=True`, an IP.
 * @public
 */
export function isPodReady(pod: PodObject): boolean {
  // JSON may carry null where the type says absent.
  if ((pod.metadata?.deletionTimestamp ?? null) !== null) return false;
  if (pod.status?.podIP === undefined || pod.status.podIP === '') return false;
  return (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Ports of the pool the pod serves now: all target ports, or those the annotation names. */
export function activePorts(pod: PodObject, targetPorts: readonly number[]): Set<number> {
  const raw = pod.metadata?.annotations?.[ACTIVE_PORTS_ANNOTATION] ?? pod.metadata?.annotations?.[ACTIVE_PORTS_ANNOTATION_LEGACY];
  if (raw === undefined) return new Set(targetPorts);
  const named = new Set(raw.split(',').map((p) => Number(p.trim())));
  return new Set(targetPorts.filter((p) => named.has(p)));
}

/**
 * Pod labels as they are (role, engine type with core's fallback key, topology), plus the hostname
 * fallback to `spec.hostname` llm-d's topology extractor applies.
 */
function endpointLabels(pod: PodObject): Record<string, string> {
  const labels: Record<string, string> = { ...(pod.metadata?.labels ?? {}) };
  const hostname = pod.spec?.hostname;
  if (labels['kubernetes.io/hostname'] === undefined && hostname !== undefined) labels['kubernetes.io/hostname'] = hostname;
  return labels;
}

/**
 * The endpoints a pod contributes to a pool, as llm-d's datastore builds them: one per active
 * target port, id `<ns>/<pod>-rank-<i>` (i = index in `targetPorts`), address and metrics at
 * `podIP:port`, the pod's labels. None when the pod does not match, is not ready, or has no IP.
 * @public
 */
export function podEndpoints(pod: PodObject, pool: PoolSpec): EndpointSpec[] {
  if (!matchesLabels(pool.selector, pod.metadata?.labels) || !isPodReady(pod)) return [];
  const ip = pod.status?.podIP ?? '';
  const ns = pod.metadata?.namespace ?? pool.namespace;
  const name = pod.metadata?.name ?? '';
  const live = activePorts(pod, pool.targetPorts);
  const labels = endpointLabels(pod);
  const out: EndpointSpec[] = [];
  pool.targetPorts.forEach((port, rank) => {
    if (!live.has(port)) return;
    out.push({ id: `${ns}/${name}-rank-${rank}`, address: joinHostPort(ip, port), labels });
  });
  return out;
}
