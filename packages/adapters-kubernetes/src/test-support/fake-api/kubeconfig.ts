import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes a kubeconfig pointing at `server` (plain http, no credentials) into a fresh temporary
 * directory, which also serves as kubectl's HOME so its discovery cache stays per test.
 * @returns the kubeconfig file and the directory
 */
export async function writeKubeconfig(server: string, namespace = 'default'): Promise<{ readonly path: string; readonly dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-kube-'));
  const path = join(dir, 'kubeconfig');
  const text = `apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: ${server}
    # client-node refuses plain http unless TLS verification is declared off.
    insecure-skip-tls-verify: true
contexts:
- name: fake
  context:
    cluster: fake
    user: fake
    namespace: ${namespace}
current-context: fake
users:
- name: fake
  user: {}
`;
  await writeFile(path, text);
  return { path, dir };
}
