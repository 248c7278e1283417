import cluster, { type Worker } from 'node:cluster';
import { InMemoryStateHub, systemClock, type Clock } from '@switchyard/core';
import { serveStateHub, type IpcChannel, type ServedWorker } from '../epp/ipc-state-transport.js';
import { RestartBudget } from './restart-budget.js';

/** What {@link runEppPrimary} needs. @internal */
export interface EppPrimaryOptions {
  /** How many workers to keep running. */
  readonly workers: number;
  /** The script each worker runs (the `switchyard-epp` binary) and its arguments (the primary's own). */
  readonly exec: string;
  readonly argv: readonly string[];
  readonly stderr: (text: string) => void;
  /** Aborting it drains every worker (each gets SIGTERM and runs its graceful shutdown), then resolves. */
  readonly signal: AbortSignal;
  /** Restarts allowed per sliding minute, all workers together (default 2 × workers, at least 5). */
  readonly maxRestartsPerMinute?: number | undefined;
  readonly clock?: Clock | undefined;
}

/** The primary's end of one worker's IPC channel. */
function channelOf(worker: Worker): IpcChannel {
  return {
    send(message) {
      // The callback form reports a closed channel to it instead of as an 'error' event.
      worker.send(message as object, undefined, () => undefined);
    },
    onMessage(handler) {
      worker.on('message', handler);
      return () => worker.off('message', handler);
    },
  };
}

/**
 * `switchyard-epp --workers N` (N > 1): this process becomes a node:cluster primary that serves
 * nothing itself. It forks N workers running the same command line (they share the listening
 * ports through the cluster), answers their shared-state exchanges from one in-memory hub, and
 * restarts a worker that dies (within {@link RestartBudget}), releasing its load from the hub.
 * A worker that exits before it ever listened (bad config, port taken) is not restarted: the
 * others are stopped and the primary exits 1, as one process would. Resolves with the exit code.
 * @internal
 */
export async function runEppPrimary(o: EppPrimaryOptions): Promise<number> {
  const hub = new InMemoryStateHub();
  const budget = new RestartBudget(o.clock ?? systemClock, o.maxRestartsPerMinute ?? Math.max(5, 2 * o.workers));
  const live = new Map<Worker, { served: ServedWorker; listened: boolean }>();
  let stopping = false;
  let code = 0;
  let settle: () => void = () => undefined;
  const allExited = new Promise<void>((resolve) => (settle = resolve));
  cluster.setupPrimary({ exec: o.exec, args: [...o.argv], execArgv: process.execArgv });

  const stopAll = (): void => {
    if (stopping) return;
    stopping = true;
    o.stderr(`switchyard-epp: draining ${live.size} workers\n`);
    for (const w of live.keys()) w.process.kill('SIGTERM');
    if (live.size === 0) settle();
  };

  const fork = (): void => {
    const worker = cluster.fork();
    const entry = { served: serveStateHub(hub, channelOf(worker)), listened: false };
    live.set(worker, entry);
    o.stderr(`switchyard-epp: worker ${String(worker.process.pid)} started\n`);
    worker.on('error', () => undefined); // a closed channel while the worker exits; 'exit' follows
    worker.once('listening', () => {
      entry.listened = true;
    });
    worker.once('exit', (exitCode: number, exitSignal: string) => {
      // Node types it as a string; it is null when the worker exited by itself.
      const signal = exitSignal as string | null;
      entry.served.release();
      live.delete(worker);
      const how = signal === null ? `code ${String(exitCode)}` : signal;
      if (stopping) {
        if (exitCode !== 0 && signal === null) code = 1;
      } else if (!entry.listened) {
        o.stderr(`switchyard-epp: worker ${String(worker.process.pid)} exited (${how}) before it served; stopping\n`);
        code = 1;
        stopAll();
      } else if (budget.take()) {
        o.stderr(`switchyard-epp: worker ${String(worker.process.pid)} exited (${how}); restarting it\n`);
        fork();
      } else {
        o.stderr(`switchyard-epp: worker ${String(worker.process.pid)} exited (${how}); not restarted: more than the restart budget in the last minute (${String(live.size)} workers left)\n`);
        if (live.size === 0) {
          code = 1;
          stopAll();
        }
      }
      if (stopping && live.size === 0) settle();
    });
  };

  o.stderr(`switchyard-epp: primary ${String(process.pid)} starting ${String(o.workers)} workers\n`);
  for (let i = 0; i < o.workers; i++) fork();
  if (o.signal.aborted) stopAll();
  else o.signal.addEventListener('abort', stopAll, { once: true });
  await allExited;
  return code;
}
