import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { startFleet, type FleetOptions } from '@switchyard/simulator';

/** A simulated fleet running somewhere: its pods' addresses and how to stop it. */
export interface HostedFleet {
  readonly addresses: readonly string[];
  close(): Promise<void>;
}

interface FleetWorkerData {
  readonly switchyardDemoFleet: true;
  readonly options: FleetOptions;
}

/** Starts the fleet in this thread (tests; no bundle needed). */
export async function startFleetHere(options: FleetOptions): Promise<HostedFleet> {
  const fleet = await startFleet(options);
  return { addresses: fleet.endpoints.map((e) => e.address), close: () => fleet.close() };
}

/**
 * Starts the fleet in a worker thread running `script` (the bundled demo itself), so the
 * simulated engines' timers do not compete with the gateway and the client on one event loop.
 */
export async function startFleetInWorker(script: URL, options: FleetOptions): Promise<HostedFleet> {
  const data: FleetWorkerData = { switchyardDemoFleet: true, options };
  const worker = new Worker(script, { workerData: data });
  const addresses = await new Promise<string[]>((resolve, reject) => {
    worker.once('message', (m: string[]) => {
      resolve(m);
    });
    worker.once('error', reject);
  });
  return {
    addresses,
    close: async () => {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => { resolve(); }));
      worker.postMessage('close');
      await exited;
    },
  };
}

/** True in a worker started by {@link startFleetInWorker}: serve the fleet until told to close. */
export function isFleetWorker(): boolean {
  return !isMainThread && (workerData as Partial<FleetWorkerData> | null)?.switchyardDemoFleet === true;
}

/** The worker's body. */
export async function serveFleetWorker(): Promise<void> {
  const { options } = workerData as FleetWorkerData;
  const fleet = await startFleet(options);
  parentPort?.postMessage(fleet.endpoints.map((e) => e.address));
  parentPort?.once('message', () => {
    void fleet.close().then(() => parentPort?.close());
  });
}
