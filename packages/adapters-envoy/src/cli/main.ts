/*
 * The `switchyard-epp` binary: runs the CLI with the process's arguments and wires SIGTERM /
 * SIGINT to a graceful drain.
 */
import { runEppCli } from './run.js';

const stop = new AbortController();
process.once('SIGTERM', () => { stop.abort(); });
process.once('SIGINT', () => { stop.abort(); });

runEppCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: stop.signal,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`switchyard-epp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
