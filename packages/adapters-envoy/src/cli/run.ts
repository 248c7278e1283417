import { readFile } from 'node:fs/promises';
import { routingProfileConfig } from '@switchyard/prefix-index';
import { setTimeout as sleep } from 'node:timers/promises';
import { SwitchyardError, createLogger, loadOpenTelemetry, openTelemetryDecisionTracer, requestLogger, type LogSink } from '@switchyard/core';
import { startEpp, type RunningEpp } from '../epp/start-epp.js';
import { EPP_USAGE, parseEppArgs, splitEndpoints } from './args.js';
import { runEppExplain } from './explain.js';
import { KubernetesMetrics, kubernetesCliDiscovery } from '@switchyard/kubernetes';
import { attachKubernetes } from './kubernetes.js';
import { generateSelfSignedCertificate } from '../epp/self-signed.js';
import type { EppCliArgs } from './args.js';
import type { EppTlsOptions } from '../grpc/options.js';
import { runEppPrimary } from './cluster-primary.js';
import { workerSharedState } from './worker-shared-state.js';
import cluster from 'node:cluster';

/**
 * Where the CLI writes and what stops it.
 * @public
 * @category CLI
 */
export interface EppCliIo {
  /** Standard output (usage). */
  readonly stdout: (text: string) => void;
  /** Standard error (effective config, lifecycle, errors). */
  readonly stderr: (text: string) => void;
  /** Aborting it drains and stops the server (the binary wires SIGTERM/SIGINT to it). */
  readonly signal: AbortSignal;
  /** Where the JSON log lines go. @default process.stdout */
  readonly logSink?: LogSink | undefined;
  /**
   * The script `--workers N` (N > 1) forks, with the same flags: the `switchyard-epp` binary sets
   * it. Without it `--workers` above 1 is refused (an embedding process is not the binary).
   */
  readonly workerScript?: string | undefined;
  /** Called once the picker is serving (tests use it to find the ports). */
  readonly onStarted?: ((epp: RunningEpp) => void) | undefined;
}

/**
 * The ext_proc port's certificate: the files given, else with `--secure-serving` one generated
 * now (llm-d's behaviour: gateways connect to the EPP over TLS without verifying it), else none.
 */
async function tlsOf(args: EppCliArgs, io: EppCliIo): Promise<EppTlsOptions | undefined> {
  if (args.tlsCert !== undefined && args.tlsKey !== undefined) return { cert: await readFile(args.tlsCert), key: await readFile(args.tlsKey) };
  if (args.llmd.secureServing !== true) return undefined;
  const generated = generateSelfSignedCertificate();
  io.stderr(`switchyard-epp: --secure-serving without --tls-cert: TLS with a self-signed certificate generated at start (sha256 ${generated.fingerprint256})\n`);
  return { cert: generated.cert, key: generated.key };
}

/**
 * Runs `switchyard-epp` with `argv` (flags only): reads the files the flags name, starts the
 * endpoint picker and serves until `io.signal` aborts. Resolves with the exit code.
 * @throws SwitchyardError `CONFIG_INVALID` for bad flags or configuration; file errors as thrown by `fs`
 * @public
 * @category CLI
 */
export async function runEppCli(argv: readonly string[], io: EppCliIo): Promise<number> {
  if (argv[0] === 'explain') return runEppExplain(argv.slice(1), io.stdout);
  const args = parseEppArgs(argv);
  if (args.help) {
    io.stdout(EPP_USAGE);
    return 0;
  }
  if (args.workers > 1 && cluster.isPrimary) {
    if (io.workerScript === undefined) throw new SwitchyardError('CONFIG_INVALID', '--workers: above 1 only through the switchyard-epp binary (it forks itself)', { field: '--workers' });
    return runEppPrimary({ workers: args.workers, exec: io.workerScript, argv, stderr: io.stderr, signal: io.signal });
  }
  for (const flag of args.deprecatedFlags) io.stderr(`switchyard-epp: ${flag} is deprecated: use --trust-classification-headers\n`);
  const endpoints = args.endpointsFile === undefined ? (args.endpoints ?? []) : splitEndpoints(await readFile(args.endpointsFile, 'utf8'));
  const otel = args.otel ? await loadOpenTelemetry() : undefined;
  if (args.otel && otel === undefined) io.stderr('switchyard-epp: --otel: @opentelemetry/api is not installed; no spans\n');
  const kube = kubernetesCliDiscovery(args.kubernetes);
  if (kube !== undefined && endpoints.length > 0) throw new SwitchyardError('CONFIG_INVALID', '--endpoints and --pool-name/--endpoint-selector: give one or the other');
  const kubeMetrics = kube === undefined ? undefined : new KubernetesMetrics();
  const configText = args.llmd.configText ?? (args.config === undefined ? (args.profile === undefined ? undefined : routingProfileConfig(args.profile)) : await readFile(args.config, 'utf8'));
  const log = (line: string): void => {
    io.stderr(`${line}\n`);
  };
  // A --workers worker shares state with its siblings through the primary (unless Redis is asked for).
  const sharedState = args.workers > 1 ? workerSharedState(configText, args.redisUrl, log) : undefined;
  const epp = await startEpp({
    ...(otel === undefined ? {} : { tracer: openTelemetryDecisionTracer(otel) }),
    configText,
    emitEndpointScores: args.llmd.emitEndpointScores,
    grpcStreamMetrics: args.llmd.grpcStreamMetrics,
    resourcesText: args.resources === undefined ? undefined : await readFile(args.resources, 'utf8'),
    endpoints,
    // llm-d labels its pool gauges with the pool's name; without one (file discovery) it is `epp`.
    poolName: typeof args.kubernetes['pool-name'] === 'string' ? args.kubernetes['pool-name'] : 'epp',
    host: args.host,
    grpcPort: args.grpcPort,
    grpcHealthPort: args.grpcHealthPort,
    metricsPort: args.metricsPort,
    ...(args.transport === undefined ? {} : { transport: args.transport }),
    tls: await tlsOf(args, io),
    scrapeIntervalMs: args.scrapeIntervalMs,
    maxBodyBytes: args.maxBodyBytes,
    trustClassificationHeaders: args.trustClassificationHeaders,
    ...(args.console ? { console: true } : {}),
    ...(args.decisionTraceHeader ? { decisionTraceHeader: true } : {}),
    ...(args.redisUrl === undefined ? {} : { redisUrl: args.redisUrl }),
    ...(sharedState === undefined ? {} : { sharedState }),
    onRequestEnd: requestLogger(createLogger({ level: args.logLevel, format: args.logFormat, name: 'switchyard-epp', ...(io.logSink === undefined ? {} : { sink: io.logSink }) })),
    log,
    // With discovery, NOT_SERVING until the pool has synced (and this replica leads).
    ready: kube === undefined,
    metricsSources: [...(kubeMetrics === undefined ? [] : [kubeMetrics.registry]), ...(sharedState === undefined ? [] : [sharedState.metrics.registry])],
    // The x-gateway-base-model-name header from the IPP model-mapping ConfigMaps.
    ...(kube === undefined ? {} : { packs: kube.packs }),
  });
  let discovery: Awaited<ReturnType<typeof attachKubernetes>> | undefined;
  if (kube !== undefined && kubeMetrics !== undefined) {
    try {
      discovery = await attachKubernetes(epp, kube, kubeMetrics, (line) => { io.stderr(`${line}\n`); });
    } catch (err) {
      await epp.close();
      throw err;
    }
  }
  for (const line of args.llmd.notActedOn) io.stderr(`switchyard-epp: llm-d flag accepted, not acted on: ${line}\n`);
  io.stderr(`switchyard-epp: serving ext_proc on ${args.host}:${epp.server.port}\n`);
  io.onStarted?.(epp);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => { resolve(); }, { once: true });
  });
  io.stderr('switchyard-epp: draining\n');
  if (discovery !== undefined && kube !== undefined) {
    // llm-d's drain: NOT_SERVING and the Lease released at once, ext_proc keeps serving.
    epp.health.shutdown();
    await discovery.drain();
    await sleep(kube.flags.drainTimeoutMs);
    await discovery.close();
  }
  await epp.close();
  return 0;
}
