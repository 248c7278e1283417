/*
 * `switchyard-epp --workers 2` through the built binary: a node:cluster primary forks two EPP
 * workers on one ext_proc port; requests over several connections are all answered, and a worker
 * killed with SIGKILL is restarted while the port keeps answering.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '@switchyard/core/testing';
import { startEppProcess, type EppProcess } from '../packages/adapters-kubernetes/src/test-support/cli-process.js';
import { EnvoyEmulator } from '../packages/adapters-envoy/src/test-support/envoy-client.js';
import { completionServerForFile, eppAnswer } from './support/both-clis.js';

const model = completionServerForFile();
const PROBE = { path: '/v1/completions', body: JSON.stringify({ model: 'm', prompt: 'hi', max_tokens: 1 }) };
let epp: EppProcess | undefined;

afterAll(async () => {
  epp?.child.kill('SIGTERM');
  await epp?.exited;
});

/** Opens `n` separate connections (each lands on one worker) and sends one request over each. */
async function answersOverConnections(port: number, n: number): Promise<string[]> {
  const destinations: string[] = [];
  for (let i = 0; i < n; i++) {
    const envoy = new EnvoyEmulator(port);
    try {
      destinations.push((await eppAnswer(envoy, PROBE)).destination ?? 'no destination');
    } finally {
      envoy.close();
    }
  }
  return destinations;
}

const workerPids = (stderr: string): number[] => [...stderr.matchAll(/worker (\d+) started/g)].map((m) => Number(m[1]));
const servingLines = (stderr: string): number => stderr.match(/serving ext_proc on /g)?.length ?? 0;

describe('switchyard-epp --workers 2', () => {
  it('answers on every connection, restarts a killed worker and keeps answering; SIGTERM drains all', async () => {
    epp = await startEppProcess(['--workers', '2', '--endpoints', model.address, '--host', '127.0.0.1', '--grpc-port', '0', '--metrics-port', '0', '--log-level', 'silent']);
    const running = epp;
    await waitFor(() => servingLines(running.stderr()) === 2);
    expect(await answersOverConnections(running.port, 6)).toEqual(Array(6).fill(model.address));

    const [victim] = workerPids(running.stderr());
    expect(victim).toBeDefined();
    process.kill(victim ?? 0, 'SIGKILL');
    await waitFor(() => running.stderr().includes(`worker ${String(victim)} exited (SIGKILL); restarting it`));
    await waitFor(() => workerPids(running.stderr()).length === 3 && servingLines(running.stderr()) === 3);
    // The restarted worker listens on the same shared port.
    expect(await answersOverConnections(running.port, 6)).toEqual(Array(6).fill(model.address));

    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.stderr()).toContain('draining 2 workers');
    epp = undefined;
  });
});
