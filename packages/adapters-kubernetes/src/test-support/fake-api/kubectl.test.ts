import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { kubectl, kubectlWatch, startFakeApiServer, writeKubeconfig, type FakeApiServer, type KubectlEnv } from './index.js';

const pod = (name: string, labels: Record<string, string>): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'vllm', image: 'vllm' }] } });

// The fake serves no OpenAPI documents, so kubectl's client-side schema validation is off.
describe('fake API server driven by the real kubectl', () => {
  let api: FakeApiServer;
  let env: KubectlEnv;
  beforeEach(async () => {
    api = await startFakeApiServer();
    env = await writeKubeconfig(api.url);
  });
  afterEach(async () => {
    await api.close();
    await rm(env.dir, { recursive: true, force: true });
  });

  it('creates, lists with selectors, merge-patches and deletes pods', async () => {
    expect(await kubectl(env, ['create', '--validate=false', '-f', '-'], pod('vllm-a', { app: 'vllm', tier: 'gpu' }))).toMatch(/pod\/vllm-a created/);
    await kubectl(env, ['create', '--validate=false', '-f', '-'], pod('vllm-b', { app: 'vllm' }));
    await kubectl(env, ['create', '--validate=false', '-f', '-'], pod('other', { app: 'web' }));
    expect(await kubectl(env, ['get', 'pods', '-l', 'app=vllm', '-o', 'name'])).toBe('pod/vllm-a\npod/vllm-b\n');
    expect(await kubectl(env, ['get', 'pods', '-l', 'app in (web),!tier', '-o', 'name'])).toBe('pod/other\n');
    expect(await kubectl(env, ['get', 'pods', '--field-selector', 'metadata.name=vllm-b', '-o', 'name'])).toBe('pod/vllm-b\n');
    await kubectl(env, ['patch', 'pod', 'vllm-b', '--type', 'merge', '-p', '{"metadata":{"labels":{"tier":"gpu"}}}']);
    expect(await kubectl(env, ['get', 'pods', '-l', 'tier=gpu', '-o', 'name'])).toBe('pod/vllm-a\npod/vllm-b\n');
    expect(await kubectl(env, ['get', 'pod', 'vllm-b', '-o', 'jsonpath={.metadata.labels.tier}'])).toBe('gpu');
    expect(await kubectl(env, ['delete', 'pod', 'vllm-a', '--wait=false'])).toMatch(/pod "vllm-a" deleted/);
    expect(await kubectl(env, ['get', 'pods', '-o', 'name'])).toBe('pod/other\npod/vllm-b\n');
    await expect(kubectl(env, ['get', 'pod', 'vllm-a'])).rejects.toThrow(/NotFound|not found/);
    await expect(kubectl(env, ['create', '--validate=false', '-f', '-'], pod('other', {}))).rejects.toThrow(/AlreadyExists|already exists/);
  });

  it('pages a list with limit and continue (kubectl --chunk-size)', async () => {
    for (let i = 0; i < 7; i++) await kubectl(env, ['create', '--validate=false', '-f', '-'], pod(`p${i}`, { app: 'vllm' }));
    expect((await kubectl(env, ['get', 'pods', '--chunk-size', '3', '-o', 'name'])).trim().split('\n')).toHaveLength(7);
    expect(api.requests.filter((r) => r.includes('limit=3') && r.includes('continue='))).toHaveLength(2);
  });

  it('serves custom resources by plural and short name', async () => {
    const poolDoc = { apiVersion: 'inference.networking.k8s.io/v1', kind: 'InferencePool', metadata: { name: 'chat' }, spec: { selector: { matchLabels: { app: 'vllm' } }, targetPorts: [{ number: 8000 }] } };
    await kubectl(env, ['create', '--validate=false', '-f', '-'], JSON.stringify(poolDoc));
    expect(await kubectl(env, ['get', 'infpool', '-o', 'name'])).toMatch(/inferencepool.inference.networking.k8s.io\/chat/);
    await kubectl(env, ['patch', 'inferencepool', 'chat', '--type', 'merge', '-p', '{"spec":{"targetPorts":[{"number":8000},{"number":8001}]}}']);
    expect(await kubectl(env, ['get', 'inferencepools', 'chat', '-o', 'jsonpath={.spec.targetPorts[*].number}'])).toBe('8000 8001');
  });

  it('streams a watch to kubectl get --watch, and ends it with 410 after a compaction', async () => {
    await kubectl(env, ['create', '--validate=false', '-f', '-'], pod('first', { app: 'vllm' }));
    const watch = kubectlWatch(env, ['get', 'pods', '--watch', '-o', 'name']);
    try {
      await watch.waitFor(/pod\/first/);
      await kubectl(env, ['create', '--validate=false', '-f', '-'], pod('second', { app: 'vllm' }));
      await watch.waitFor(/pod\/second/);
      expect(api.requests.some((r) => /\/api\/v1\/namespaces\/default\/pods\?.*watch=true/.test(r))).toBe(true);
    } finally {
      await watch.stop();
    }
    // kubectl cannot be told to watch from an old resourceVersion; a raw watch shows the 410.
    const rv = String(api.store.resourceVersion);
    api.store.compact();
    await kubectl(env, ['create', '--validate=false', '-f', '-'], pod('third', { app: 'vllm' }));
    const res = await fetch(`${api.url}/api/v1/namespaces/default/pods?watch=true&resourceVersion=${String(Number(rv) - 1)}`);
    expect((await res.text()).trim()).toMatch(/"type":"ERROR".*"code":410.*"reason":"Expired"|"reason":"Expired".*"code":410/);
  });

  it('answers PUT with a stale resourceVersion with 409 Conflict', async () => {
    await kubectl(env, ['create', '--validate=false', '-f', '-'], pod('a', { app: 'vllm' }));
    const current = (await (await fetch(`${api.url}/api/v1/namespaces/default/pods/a`)).json()) as { metadata: { resourceVersion: string } };
    const put = (rv: string): Promise<Response> =>
      fetch(`${api.url}/api/v1/namespaces/default/pods/a`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'a', resourceVersion: rv, labels: { v: rv } } }) });
    expect((await put(current.metadata.resourceVersion)).status).toBe(200);
    const stale = await put(current.metadata.resourceVersion);
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
  });

  it('sends BOOKMARK events only to watches that ask for them', async () => {
    const ctl = new AbortController();
    const res = await fetch(`${api.url}/api/v1/namespaces/default/pods?watch=1&allowWatchBookmarks=true&resourceVersion=${String(api.store.resourceVersion)}`, { signal: ctl.signal });
    const reader = res.body!.getReader();
    const chunk = await reader.read();
    const first = new TextDecoder().decode(chunk.value as Uint8Array);
    ctl.abort();
    expect(JSON.parse(first.split('\n')[0]!)).toMatchObject({ type: 'BOOKMARK', object: { kind: 'Pod', metadata: { resourceVersion: String(api.store.resourceVersion) } } });
  });
});
