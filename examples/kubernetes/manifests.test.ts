import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadResources } from '@switchyard/core';
import { parseEppArgs } from '@switchyard/envoy';
import { parseGatewayArgs } from '@switchyard/express';
import { BaseModelMap, IPP_MANAGED_LABEL, eppLeaseName, parseKubernetesFlags, parseModelMapping, poolSpecFromObject, type InferencePoolObject } from '@switchyard/kubernetes';

/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- manifests are free-form YAML */
type Doc = Record<string, any>;

const read = async (file: string): Promise<Doc[]> => parseAllDocuments(await readFile(new URL(file, import.meta.url), 'utf8')).map((d) => d.toJS() as Doc);
const argsOf = (deployment: Doc): string[] => (deployment.spec.template.spec.containers[0].args as string[]).map((a) => a.replace('$(NAMESPACE)', 'llm'));

describe('examples/kubernetes', () => {
  it('the InferencePool reads as discovery reads it', async () => {
    const [pool] = await read('./inferencepool.yaml');
    const spec = poolSpecFromObject(pool as InferencePoolObject, 'llm');
    expect(spec).toMatchObject({ name: 'chat', targetPorts: [8000], appProtocol: 'http' });
    expect(pool!.spec.endpointPickerRef).toMatchObject({ name: 'switchyard-epp', failureMode: 'FailClose', port: { number: 9002 } });
    const [vllm] = await read('./vllm.yaml');
    expect(vllm!.spec.template.metadata.labels).toMatchObject(pool!.spec.selector.matchLabels);
  });

  it('the objective and the rewrite load and name the pool', async () => {
    const text = await readFile(new URL('./objectives.yaml', import.meta.url), 'utf8');
    const { objectives, modelRewrites } = loadResources(text);
    expect(objectives).toEqual([expect.objectContaining({ name: 'interactive', priority: 10, poolRefs: [{ name: 'chat' }] })]);
    expect(modelRewrites[0]?.rules[0]?.targets).toHaveLength(2);
  });

  it('the EPP runs two replicas with leader election on llm-d\'s Lease, with flags the CLI accepts', async () => {
    const [deployment, service, lease] = await read('./epp.yaml');
    expect(deployment!.spec.replicas).toBe(2);
    const args = parseEppArgs(argsOf(deployment!));
    const k8s = parseKubernetesFlags(args.kubernetes);
    expect(k8s?.discovery).toMatchObject({ poolName: 'chat', poolNamespace: 'llm', leaderElection: true });
    expect(k8s?.drainTimeoutMs).toBe(30_000);
    expect(lease!.metadata.name).toBe(eppLeaseName('llm', 'chat'));
    expect(service!.spec.ports[0].port).toBe(9002);
    const probes = deployment!.spec.template.spec.containers[0];
    expect([probes.livenessProbe.grpc.service, probes.readinessProbe.grpc.service]).toEqual(['liveness', 'readiness']);
  });

  it('the model-mapping ConfigMap is labelled for IPP and maps its adapters to the base model', async () => {
    const [cm] = await read('./model-mappings.yaml');
    expect(cm!.metadata.labels[IPP_MANAGED_LABEL]).toBe('true');
    const mapping = parseModelMapping(cm!);
    if (typeof mapping === 'string') throw new Error(mapping);
    const map = new BaseModelMap();
    map.set('llm/qwen3-8b-adapters', mapping);
    // The base model the vLLM Deployment serves, its LoRA adapter, and the alias the rewrite splits.
    const [vllm] = await read('./vllm.yaml');
    const served: string[] = vllm!.spec.template.spec.containers[0].args;
    expect(served[served.indexOf('--model') + 1]).toBe('Qwen/Qwen3-8B');
    expect(served.join(' ')).toContain('sql-lora=');
    expect(map.baseModelOf('sql-lora')).toBe('Qwen/Qwen3-8B');
    expect(map.baseModelOf('Qwen/Qwen3-8B')).toBe('Qwen/Qwen3-8B');
    const [, rewrite] = await read('./objectives.yaml');
    const alias: string = rewrite!.spec.rules[0].matches[0].model.value;
    expect(map.baseModelOf(alias)).toBe('Qwen/Qwen3-8B');
  });

  it('the in-process gateway alternative has flags the gateway CLI accepts', async () => {
    const [deployment] = await read('./gateway.yaml');
    const args = parseGatewayArgs(argsOf(deployment!));
    expect(parseKubernetesFlags(args.kubernetes)?.discovery).toMatchObject({ poolName: 'chat', poolNamespace: 'llm' });
  });

  it('RBAC grants what discovery and the Lease need, and writes nothing else', async () => {
    const docs = await read('./rbac.yaml');
    const role = docs.find((d) => d.kind === 'Role')!;
    const rules = role.rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[];
    const can = (group: string, resource: string, verb: string): boolean => rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));
    for (const [g, r] of [['', 'pods'], ['', 'configmaps'], ['inference.networking.k8s.io', 'inferencepools'], ['llm-d.ai', 'inferenceobjectives'], ['llm-d.ai', 'inferencemodelrewrites']] as const) {
      for (const verb of ['list', 'watch']) expect(can(g, r, verb)).toBe(true);
    }
    for (const verb of ['get', 'create', 'update']) expect(can('coordination.k8s.io', 'leases', verb)).toBe(true);
    const writers = rules.filter((r) => r.verbs.some((v) => ['create', 'update', 'patch', 'delete'].includes(v)));
    expect(writers.flatMap((r) => r.resources)).toEqual(['leases']);
  });
});
