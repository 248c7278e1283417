import { isSwitchyardError } from '@switchyard/core';
import { COMPARE_USAGE, runCompare } from './compare.js';
import { MATRIX_USAGE, runMatrixCommand } from './matrix.js';
import { runServe, SERVE_USAGE } from './serve.js';
import type { CliIo } from './types.js';

const USAGE = `Usage: switchyard-sim <command> [options]

Commands:
  serve     start a fleet of simulated vLLM pods (HTTP + metrics + KV events)
  compare   run one workload under several routing policies in virtual time; write report.html
  matrix    judge a policy (default switchyard) against round-robin, least-queue and llm-d's
            default over every workload × load 0.5/0.7/0.9 × 1 and 4 gateways; pass/fail per cell

Run "switchyard-sim <command> --help" for a command's options.
`;

/**
 * Runs the `switchyard-sim` command line and resolves with the exit code. Exposed so programs and
 * tests can drive the CLI without a child process.
 * @example
 * ```ts
 * const ac = new AbortController();
 * const done = runCli(['serve', '--pods', '2', '--base-port', '0'], { stdout: process.stdout, stderr: process.stderr, signal: ac.signal });
 * // ... later
 * ac.abort();
 * await done; // 0
 * ```
 * @public
 * @category CLI
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  try {
    switch (command) {
      case 'serve':
        if (wantsHelp) {
          io.stdout.write(SERVE_USAGE);
          return 0;
        }
        return await runServe(rest, io);
      case 'compare':
        if (wantsHelp) {
          io.stdout.write(COMPARE_USAGE);
          return 0;
        }
        return await runCompare(rest, io);
      case 'matrix':
        if (wantsHelp) {
          io.stdout.write(MATRIX_USAGE);
          return 0;
        }
        return await runMatrixCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout.write(USAGE);
        return command === undefined ? 2 : 0;
      default:
        io.stderr.write(`switchyard-sim: unknown command "${command}"\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    const message = isSwitchyardError(err) || err instanceof TypeError ? err.message : err instanceof Error ? err.stack ?? err.message : String(err);
    io.stderr.write(`switchyard-sim: ${message}\n`);
    return 1;
  }
}
