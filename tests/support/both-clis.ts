/*
 * Starts `switchyard-epp` and `switchyard-gateway` through their CLI entry points with one config
 * text and sends one request through each, against a model server on loopback. Used by tests of
 * plugin types that must load (and act) identically in both.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runEppCli, type RunningEpp } from '@switchyard/envoy';
import { runGatewayCli } from '@switchyard/express';
import { EnvoyEmulator } from '../../packages/adapters-envoy/src/test-support/envoy-client.js';
import { reqBody, reqHeaders, setHeaders } from '../../packages/adapters-envoy/src/test-support/wire-helpers.js';

/** A model server: answers every request with `answer`, records what it received; `/metrics` is empty. */
export class ModelServer {
  readonly received: { path: string; body: string; headers: IncomingMessage['headers'] }[] = [];
  #server: Server | undefined;
  address = '';

  constructor(private readonly answer: (path: string, res: ServerResponse) => void) {}

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/metrics') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('vllm:num_requests_waiting 0\nvllm:num_requests_running 0\nvllm:kv_cache_usage_perc 0\n');
          return;
        }
        this.received.push({ path: req.url ?? '', body, headers: req.headers });
        this.answer(req.url ?? '', res);
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.address = `127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

/** A small OpenAI completion reply with usage. */
export const COMPLETION_REPLY = '{"id":"x","object":"text_completion","model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1}}';

/** A {@link ModelServer} answering every request with {@link COMPLETION_REPLY}, started before the calling file's tests and stopped after them. */
export function completionServerForFile(): ModelServer {
  const server = new ModelServer((_path, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(COMPLETION_REPLY));
  beforeAll(async () => {
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
  });
  return server;
}

/** One request to send. */
export interface Probe {
  readonly path: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Writes `yaml` to a temporary file for the duration of `run`. */
export async function withConfigFile<T>(yaml: string, run: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(file, yaml);
  try {
    return await run(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What switchyard-epp answered: the destination it chose, or the immediate response's status. */
export interface EppAnswer {
  readonly destination?: string;
  readonly status?: number;
}

/** A switchyard-epp started through its CLI entry point, with an emulated Envoy connected to it. */
export interface RunningEppCli {
  readonly epp: RunningEpp;
  readonly envoy: EnvoyEmulator;
  close(): Promise<void>;
}

/**
 * Starts switchyard-epp with `args` (loopback, ports chosen by the OS, silent logs) and connects an
 * emulated Envoy; rejects with the CLI's error when it refuses to start.
 */
export async function startEppCli(args: readonly string[]): Promise<RunningEppCli> {
  const stop = new AbortController();
  const epp = await new Promise<RunningEpp>((resolve, reject) => {
    runEppCli([...args, '--host', '127.0.0.1', '--grpc-port', '0', '--metrics-port', '0', '--log-level', 'silent'], {
      stdout: () => undefined,
      stderr: () => undefined,
      signal: stop.signal,
      onStarted: resolve,
    }).catch(reject);
  });
  const envoy = new EnvoyEmulator(epp.server.port);
  return {
    epp,
    envoy,
    async close() {
      envoy.close();
      stop.abort();
      await epp.close();
    },
  };
}

/** Sends `probe` as one ext_proc stream: the destination the EPP chose, or its immediate response's status. */
export async function eppAnswer(envoy: EnvoyEmulator, probe: Probe): Promise<EppAnswer> {
  const s = envoy.open();
  s.send(reqHeaders({ ':method': 'POST', ':path': probe.path, 'content-type': 'application/json', ...probe.headers }));
  s.send(reqBody(probe.body, true));
  const [reply] = await s.waitFor(1);
  s.cancel();
  await s.ended;
  const immediate = reply?.immediate_response;
  if (immediate !== undefined) return { status: immediate.status.code };
  const headers = reply?.request_headers?.response.header_mutation ?? reply?.request_body?.response.header_mutation;
  const destination = setHeaders(headers)['x-gateway-destination-endpoint'];
  return destination === undefined ? {} : { destination };
}

/** Starts switchyard-epp with `file` and sends `probe` through an emulated Envoy. */
export async function throughEpp(file: string, endpoints: string, probe: Probe): Promise<EppAnswer> {
  const running = await startEppCli(['--config', file, '--endpoints', endpoints]);
  try {
    return await eppAnswer(running.envoy, probe);
  } finally {
    await running.close();
  }
}

/** Starts switchyard-gateway with `file`, posts `probe`; returns the status and body. */
export async function throughGateway(file: string, endpoints: string, probe: Probe): Promise<{ status: number; body: string }> {
  const r = await runGatewayCli(['--config', file, '--endpoints', endpoints, '--host', '127.0.0.1', '--port', '0', '--log-level', 'silent'], { out: () => undefined, err: () => undefined });
  if (r.kind !== 'running') throw new Error(`switchyard-gateway exited with ${r.code}`);
  try {
    const res = await fetch(`${r.url}${probe.path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...probe.headers }, body: probe.body });
    return { status: res.status, body: await res.text() };
  } finally {
    await r.gateway.close();
  }
}

/** Loads `yaml` in both CLIs; rejects with the first CLI's error when one refuses it. */
export async function loadErrorOf(yaml: string, endpoints: string): Promise<{ epp: string; gateway: string }> {
  return withConfigFile(yaml, async (file) => {
    const probe = { path: '/v1/completions', body: '{"model":"m","prompt":"x"}' };
    const epp = await throughEpp(file, endpoints, probe).then(() => '', (e: unknown) => String(e));
    const errs: string[] = [];
    const r = await runGatewayCli(['--config', file, '--endpoints', endpoints, '--host', '127.0.0.1', '--port', '0', '--log-level', 'silent'], { out: () => undefined, err: (s: string) => errs.push(s) });
    if (r.kind === 'running') await r.gateway.close();
    return { epp, gateway: errs.join('') };
  });
}
