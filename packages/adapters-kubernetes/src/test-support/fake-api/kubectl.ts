import { execFile, spawn, type ChildProcess } from 'node:child_process';

/** kubectl's environment: the kubeconfig and a HOME of its own (discovery cache per test). */
export interface KubectlEnv {
  readonly path: string;
  readonly dir: string;
}

const envOf = (k: KubectlEnv): NodeJS.ProcessEnv => ({ ...process.env, KUBECONFIG: k.path, HOME: k.dir });

/** Runs `kubectl` to completion; rejects with its stderr on a non-zero exit. */
export function kubectl(k: KubectlEnv, args: readonly string[], stdin?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('kubectl', [...args], { env: envOf(k), timeout: 20_000 }, (err, stdout, stderr) => {
      if (err !== null) reject(new Error(`kubectl ${args.join(' ')} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** A running `kubectl get --watch`: its output so far, and a way to wait for a line. */
export interface KubectlWatch {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves once the output matches. */
  waitFor(pattern: RegExp): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `kubectl <args>` (a `get ... --watch`) in the background. */
export function kubectlWatch(k: KubectlEnv, args: readonly string[]): KubectlWatch {
  const child = spawn('kubectl', [...args], { env: envOf(k), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (d: Buffer): void => {
    out += d.toString('utf8');
    for (const w of waiters) w();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve(); }));
  return {
    child,
    output: () => out,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`kubectl output never matched ${String(pattern)}:\n${out}`));
        }, 15_000);
        const check = (): void => {
          if (!pattern.test(out)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
