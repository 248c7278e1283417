import cluster from 'node:cluster';
import { ReplicaSync, sharedStateSettingsOf } from '@switchyard/core';
import { ipcStateTransport, type IpcChannel } from '../epp/ipc-state-transport.js';

/** A cluster worker's end of its IPC channel to the primary. */
function primaryChannel(): IpcChannel {
  return {
    send(message) {
      if (process.send === undefined) throw new Error('no IPC channel to the primary');
      process.send(message, undefined, undefined, () => undefined);
    },
    onMessage(handler) {
      process.on('message', handler);
      return () => process.off('message', handler);
    },
  };
}

/**
 * In a `--workers N` worker: the shared state over the primary's hub, unless `--redis-url` or the
 * config's `switchyard.sharedState` names a Redis (then `startEpp` builds that, as without
 * workers). Undefined outside a cluster worker.
 * @throws SwitchyardError `CONFIG_INVALID` naming a bad `switchyard.sharedState` field
 * @internal
 */
export function workerSharedState(configText: string | undefined, redisUrl: string | undefined, log: (line: string) => void): ReplicaSync | undefined {
  if (!cluster.isWorker || cluster.worker === undefined) return undefined;
  if (sharedStateSettingsOf(configText, redisUrl) !== undefined) return undefined;
  return new ReplicaSync({ transport: ipcStateTransport(primaryChannel()), replicaId: `worker-${String(cluster.worker.id)}-pid-${String(process.pid)}`, log });
}
