import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../adapters-envoy/bin/switchyard-epp.mjs', import.meta.url));
const BUILT = [
  fileURLToPath(new URL('../../../adapters-envoy/dist/cli.js', import.meta.url)),
  fileURLToPath(new URL('../../dist/index.js', import.meta.url)),
];

/** A `switchyard-epp` process started from the built package, as a Deployment's container runs it. */
export interface EppProcess {
  readonly child: ChildProcess;
  /** The ext_proc / gRPC health port it printed. */
  readonly port: number;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Its Lease holder identity, once it logged it (when it starts campaigning). */
  identity(): string | undefined;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
}

/**
 * Starts the built `switchyard-epp` with `args`; resolves once it serves ext_proc. Throws (never
 * skips) when the build is missing: the CLI under test is the one users run.
 */
export async function startEppProcess(args: readonly string[]): Promise<EppProcess> {
  for (const f of BUILT) if (!existsSync(f)) throw new Error(`${f} is missing: this test runs the built switchyard-epp; run \`npm run build\` first`);
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => { resolve(code ?? signal ?? -1); });
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      err += chunk;
      const m = /serving ext_proc on [^\s]+:(\d+)/.exec(err);
      if (m !== null) resolve(Number(m[1]));
    });
    void exited.then((code) => { reject(new Error(`switchyard-epp exited (${String(code)}) before serving:\n${err}`)); });
  });
  return {
    child,
    port,
    exited,
    stderr: () => err,
    identity: () => /campaigning for Lease \S+ as (\S+)/.exec(err)?.[1],
  };
}
