import { describe, expect, it } from 'vitest';
import { ModelRewriteStore, ObjectiveStore, SwitchyardError, loadModelRewrites, loadObjectives, loadResources, objectiveFromManifest } from '@switchyard/core';

// The three objectives of the flow-control walkthrough (premium / standard / best-effort).
const SEED = `apiVersion: llm-d.ai/v1
kind: InferenceObjective
metadata:
  name: premium-traffic
spec:
  priority: 100
  poolRefs:
  - name: qwen32b-pool
---
apiVersion: llm-d.ai/v1
kind: InferenceObjective
metadata:
  name: standard-traffic
spec:
  priority: 0
  poolRefs:
  - name: qwen32b-pool
---
apiVersion: llm-d.ai/v1
kind: InferenceObjective
metadata:
  name: best-effort-traffic
spec:
  priority: -10
  poolRefs:
  - name: qwen32b-pool
`;

const REWRITE = `apiVersion: llm-d.ai/v1alpha2
kind: InferenceModelRewrite
metadata:
  name: canary
  creationTimestamp: "2026-01-02T03:04:05Z"
spec:
  poolRef:
    name: qwen32b-pool
  rules:
  - matches:
    - model:
        type: Exact
        value: food-review
    targets:
    - modelRewrite: food-review-v1
      weight: 90
    - modelRewrite: food-review-v2
      weight: 10
  - targets:
    - modelRewrite: Qwen/Qwen3-32B
`;

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof SwitchyardError && err.code === 'CONFIG_INVALID') return err.message;
    throw err;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('loadResources', () => {
  it('loads the premium/standard/best-effort objectives', () => {
    const objectives = loadObjectives(SEED);
    expect(objectives).toEqual([
      { name: 'premium-traffic', priority: 100, poolRefs: [{ name: 'qwen32b-pool' }] },
      { name: 'standard-traffic', priority: 0, poolRefs: [{ name: 'qwen32b-pool' }] },
      { name: 'best-effort-traffic', priority: -10, poolRefs: [{ name: 'qwen32b-pool' }] },
    ]);
    const store = new ObjectiveStore(objectives, { poolName: 'qwen32b-pool' });
    expect([store.priorityOf('premium-traffic'), store.priorityOf('best-effort-traffic'), store.priorityOf('unknown')]).toEqual([100, -10, 0]);
  });

  it('loads model rewrites and resolves them', () => {
    const [rw] = loadModelRewrites(REWRITE);
    expect(rw).toEqual({
      name: 'canary',
      creationTimestamp: Date.UTC(2026, 0, 2, 3, 4, 5),
      poolRef: { name: 'qwen32b-pool' },
      rules: [
        { matches: ['food-review'], targets: [{ modelRewrite: 'food-review-v1', weight: 90 }, { modelRewrite: 'food-review-v2', weight: 10 }] },
        { matches: [], targets: [{ modelRewrite: 'Qwen/Qwen3-32B' }] },
      ],
    });
    const store = new ModelRewriteStore(loadModelRewrites(REWRITE));
    expect(store.resolve('food-review', () => 0.95)).toBe('food-review-v2');
    expect(store.resolve('anything', () => 0.5)).toBe('Qwen/Qwen3-32B');
  });

  it('loads mixed YAML, JSON objects, arrays and Lists; legacy versions and poolRef', () => {
    const both = loadResources(`${SEED}---\n${REWRITE}---\n`);
    expect(both.objectives).toHaveLength(3);
    expect(both.modelRewrites).toHaveLength(1);
    const legacy = { apiVersion: 'inference.networking.x-k8s.io/v1alpha2', kind: 'InferenceObjective', metadata: { name: 'old', namespace: 'ns' }, spec: { poolRef: { name: 'p', group: 'g' } } };
    expect(loadObjectives(JSON.stringify(legacy))).toEqual([{ name: 'old', namespace: 'ns', priority: 0, poolRefs: [{ name: 'p', group: 'g' }] }]);
    expect(loadObjectives(JSON.stringify([legacy, { ...legacy, metadata: { name: 'b' } }]))).toHaveLength(2);
    expect(loadObjectives(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [legacy] }))).toHaveLength(1);
    expect(loadResources('')).toEqual({ objectives: [], modelRewrites: [] });
  });

  it('names the document and field path on errors', () => {
    const bad = SEED.replace('priority: -10', 'priority: high');
    expect(configError(() => loadObjectives(bad))).toMatch(/^invalid InferenceObjective "best-effort-traffic": document\[2\]\.spec\.priority: /);
    expect(configError(() => loadObjectives(SEED.replace('priority: 100', 'priorty: 100')))).toContain('document[0].spec: Unrecognized key: "priorty"');
    expect(configError(() => loadObjectives(SEED.replace('priority: 0', 'priority: 3000000000')))).toContain('document[1].spec.priority');
    expect(configError(() => loadModelRewrites(REWRITE.replace('weight: 10', 'weight: 0')))).toContain('document[0].spec.rules[0].targets[1].weight');
    expect(configError(() => loadModelRewrites(REWRITE.replace('value: food-review', 'value: ""')))).toContain('document[0].spec.rules[0].matches[0].model.value');
    expect(configError(() => loadResources('apiVersion: llm-d.ai/v9\nkind: InferenceObjective\nmetadata: {name: x}\n'))).toContain('document[0].apiVersion');
    expect(configError(() => loadResources('apiVersion: llm-d.ai/v1\nkind: InferenceObjective\nmetadata: {}\n'))).toContain('document[0].metadata.name');
    expect(configError(() => loadResources('a: 1\n---\nb: [\n'))).toMatch(/^document\[1\]: invalid YAML/);
    expect(configError(() => loadResources(`${SEED}---\n${SEED.split('---')[0] ?? ''}`))).toBe('document[3]: duplicate InferenceObjective "premium-traffic" (first defined in document[0])');
  });

  it('rejects unknown kinds unless told to skip them', () => {
    const pool = 'apiVersion: llm-d.ai/v1\nkind: InferencePool\nmetadata: {name: p}\nspec: {}\n';
    expect(configError(() => loadResources(`${pool}---\n${SEED}`))).toContain('document[0].kind: unsupported kind "InferencePool"');
    expect(loadObjectives(`${pool}---\n${SEED}`, { ignoreUnknownKinds: true })).toHaveLength(3);
    // Skipped whatever their apiVersion, as in a `kubectl get -o yaml` dump of a namespace.
    const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {}\n';
    expect(loadObjectives(`${configMap}---\n${SEED}`, { ignoreUnknownKinds: true })).toHaveLength(3);
    expect(configError(() => loadResources(`${configMap}---\n${SEED}`))).toContain('document[0]');
  });

  it('converts single manifests for watchers', () => {
    expect(objectiveFromManifest({ apiVersion: 'llm-d.ai/v1', kind: 'InferenceObjective', metadata: { name: 'x' }, spec: { priority: null } })).toEqual({ name: 'x', priority: 0 });
    expect(configError(() => objectiveFromManifest({ apiVersion: 'llm-d.ai/v1', kind: 'InferenceModelRewrite', metadata: { name: 'x' }, spec: { rules: [] } }))).toBe(
      'resource.kind: expected InferenceObjective',
    );
  });
});
