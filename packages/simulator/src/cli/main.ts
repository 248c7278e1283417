import { runCli } from './run.js';

// The `switchyard-sim` bin: SIGINT/SIGTERM stop long-running commands cleanly.
const ac = new AbortController();
const stop = (): void => { ac.abort(); };
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, signal: ac.signal });
process.off('SIGINT', stop);
process.off('SIGTERM', stop);
