import type { FakeStore, Obj } from './fake-api/store.js';

/** Resource keys of the fake store. */
export const PODS = '/v1/pods';
export const POOLS = 'inference.networking.k8s.io/v1/inferencepools';
export const OBJECTIVES = 'llm-d.ai/v1alpha2/inferenceobjectives';
export const REWRITES = 'llm-d.ai/v1alpha2/inferencemodelrewrites';
export const LEASES = 'coordination.k8s.io/v1/leases';

/** A pod manifest with an IP and a Ready condition. */
export function podObject(name: string, ip: string, o: { labels?: Record<string, string>; ready?: boolean; annotations?: Record<string, string> } = {}): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: o.labels ?? { app: 'vllm' }, ...(o.annotations === undefined ? {} : { annotations: o.annotations }) },
    spec: { containers: [{ name: 'vllm', image: 'vllm/vllm-openai' }] },
    status: { phase: 'Running', podIP: ip, hostIP: ip, conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}

/** An InferencePool manifest. */
export function poolObject(name: string, matchLabels: Record<string, string>, ports: number[], extra: Record<string, unknown> = {}): Obj {
  return { apiVersion: 'inference.networking.k8s.io/v1', kind: 'InferencePool', metadata: { name }, spec: { selector: { matchLabels }, targetPorts: ports.map((number) => ({ number })), ...extra } };
}

/** Marks a pod ready or not (a status update, as the kubelet makes). */
export function setReady(store: FakeStore, ns: string, name: string, ready: boolean): void {
  store.patch(PODS, ns, name, { status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
}

export const CONFIGMAPS = '/v1/configmaps';

/** An IPP model-mapping ConfigMap (`inference.llm-d.ai/ipp-managed: "true"`). */
export function modelMappingObject(name: string, baseModel: string, adapters: string[], labelled = true): Obj {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels: labelled ? { 'inference.llm-d.ai/ipp-managed': 'true' } : {} },
    data: { baseModel, adapters: adapters.map((a) => `- ${a}`).join('\n') },
  };
}
