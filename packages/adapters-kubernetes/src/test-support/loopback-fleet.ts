import { ModelServer } from '@switchyard/simulator';

/** Simulated vLLM pods on distinct loopback IPs sharing one port, as pods of a pool do. */
export interface LoopbackFleet {
  readonly port: number;
  /** Pod IP → server (its `x-simulator-pod` header is the pod name). */
  readonly servers: ReadonlyMap<string, ModelServer>;
  close(): Promise<void>;
}

/**
 * Starts one simulated model server per IP (127.0.0.2, 127.0.0.3, …) on the same port, with the
 * pod name as its `x-simulator-pod` header, serving base model `m` and the LoRA `adapters`.
 */
export async function startLoopbackFleet(pods: readonly { readonly ip: string; readonly name: string }[], adapters: readonly string[] = []): Promise<LoopbackFleet> {
  const servers = new Map<string, ModelServer>();
  let port = 0;
  try {
    for (const pod of pods) {
      const server = new ModelServer({ podName: pod.name, overrides: { modelName: 'm', loraAdapters: [...adapters] }, timeScale: 50 });
      // The first server picks a free port; the others take the same one on their own IP.
      const address = await server.listen(port, pod.ip);
      port = address.port;
      servers.set(pod.ip, server);
    }
  } catch (err) {
    await Promise.all([...servers.values()].map((s) => s.close()));
    throw err;
  }
  return { port, servers, close: async () => { await Promise.all([...servers.values()].map((s) => s.close())); } };
}
