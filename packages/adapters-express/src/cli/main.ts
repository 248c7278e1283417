/**
 * The `switchyard-gateway` executable.
 * @packageDocumentation
 */
import { runGatewayCli } from './run.js';

const result = await runGatewayCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
if (result.kind === 'exit') {
  process.exitCode = result.code;
} else {
  const gateway = result.gateway;
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      process.exit(1); // a second signal skips the drain
    }
    stopping = true;
    process.stderr.write(`switchyard-gateway: ${signal}, draining (send again to force)\n`);
    gateway.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`switchyard-gateway: shutdown failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => {
    stop('SIGTERM');
  });
  process.on('SIGINT', () => {
    stop('SIGINT');
  });
}
