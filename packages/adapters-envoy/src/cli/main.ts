/*
 * The `switchyard-epp` binary: runs the CLI with the process's arguments and wires SIGTERM /
 * SIGINT to a graceful drain.
 */
import cluster from 'node:cluster';
import { runEppCli } from './run.js';

const stop = new AbortController();
process.once('SIGTERM', () => { stop.abort(); });
process.once('SIGINT', () => { stop.abort(); });

runEppCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: stop.signal,
  // --workers N forks this same script.
  workerScript: process.argv[1],
}).then(
  (code) => {
    process.exitCode = code;
    // A cluster worker's IPC channel to the primary would keep it alive after the drain.
    if (cluster.isWorker) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`switchyard-epp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    if (cluster.isWorker) process.exit(1);
  },
);
