import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * A `redis-server` child process on a loopback port, for tests and local runs.
 * @public
 */
export interface RedisServerHandle {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  /** The port. */
  readonly port: number;
  /** Stops it (SIGTERM; SIGKILL with `hard`) and waits for the exit. Idempotent. */
  stop(hard?: boolean): Promise<void>;
  /** Starts it again on the same port, empty (no persistence). */
  restart(): Promise<void>;
}

/** A free loopback port (bound then released). @internal */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      s.close(() => {
        resolve(port);
      });
    });
  });
}

function launch(binary: string, port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      if (out.includes('Ready to accept connections')) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        child.stderr.resume();
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT' ? new Error(`${binary} not found: install it (Debian: apt-get install -y redis-server)`) : err);
    });
    child.once('exit', (code) => {
      reject(new Error(`redis-server exited with ${String(code)} before it was ready: ${out.slice(-500)}`));
    });
  });
}

/**
 * Starts `redis-server` (from PATH, or `binary`) on a free loopback port without persistence and
 * resolves once it accepts connections. Fails loudly when the binary is missing.
 * @public
 */
export async function startRedisServer(binary = 'redis-server'): Promise<RedisServerHandle> {
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(binary, port);
  const stop = async (hard = false): Promise<void> => {
    const c = child;
    child = undefined;
    if (c === undefined || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => {
        resolve();
      });
      c.kill(hard ? 'SIGKILL' : 'SIGTERM');
    });
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    async restart() {
      await stop(true);
      child = await launch(binary, port);
    },
  };
}
