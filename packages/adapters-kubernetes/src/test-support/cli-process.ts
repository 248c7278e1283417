import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
/** The built files a CLI needs: its own bundle and this package's (which both CLIs import). */
const KUBERNETES_DIST = here('../../dist/index.js');

/** A Switchyard CLI process started from the built package, as a container runs it. */
export interface CliProcess {
  readonly child: ChildProcess;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
}

/** A `switchyard-epp` process. */
export interface EppProcess extends CliProcess {
  /** The ext_proc / gRPC health port it printed. */
  readonly port: number;
  /** Its Lease holder identity, once it logged it (when it starts campaigning). */
  identity(): string | undefined;
}

/** A `switchyard-gateway` process. */
export interface GatewayProcess extends CliProcess {
  /** The URL it printed it listens on. */
  readonly url: string;
}

/**
 * Starts `node bin` with `args`; resolves with the first match of `started` in its stderr. Throws
 * (never skips) when the build is missing: the CLI under test is the one users run.
 */
async function startBuiltCli(bin: string, built: string, args: readonly string[], started: RegExp): Promise<CliProcess & { readonly match: RegExpExecArray }> {
  for (const f of [built, KUBERNETES_DIST]) if (!existsSync(f)) throw new Error(`${f} is missing: this test runs the built CLI; run \`npm run build\` first`);
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => { resolve(code ?? signal ?? -1); });
  });
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      err += chunk;
      const m = started.exec(err);
      if (m !== null) resolve(m);
    });
    void exited.then((code) => { reject(new Error(`${bin} exited (${String(code)}) before serving:\n${err}`)); });
  });
  return { child, exited, match, stderr: () => err };
}

/** Starts the built `switchyard-epp` with `args`; resolves once it serves ext_proc. */
export async function startEppProcess(args: readonly string[]): Promise<EppProcess> {
  const p = await startBuiltCli(here('../../../adapters-envoy/bin/switchyard-epp.mjs'), here('../../../adapters-envoy/dist/cli.js'), args, /serving ext_proc on [^\s]+:(\d+)/);
  return { ...p, port: Number(p.match[1]), identity: () => /campaigning for Lease \S+ as (\S+)/.exec(p.stderr())?.[1] };
}

/** Starts the built `switchyard-gateway` with `args`; resolves once it listens. */
export async function startGatewayProcess(args: readonly string[]): Promise<GatewayProcess> {
  const p = await startBuiltCli(here('../../../adapters-express/bin/switchyard-gateway.mjs'), here('../../../adapters-express/dist/cli.js'), args, /switchyard-gateway listening on (http:\/\/[^\s;]+)/);
  return { ...p, url: p.match[1] ?? '' };
}
