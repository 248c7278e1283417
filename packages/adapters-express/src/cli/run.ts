import { readFile } from 'node:fs/promises';
import { createLogger, isSwitchyardError, loadOpenTelemetry, openTelemetryDecisionTracer, requestLogger, type LogSink } from '@switchyard/core';
import type { PluginDefinition } from '@switchyard/core';
import { routingProfileConfig } from '@switchyard/prefix-index';
import { createGatewayFromConfig, type Gateway } from '../config/from-config.js';
import { GATEWAY_USAGE, parseGatewayArgs } from './args.js';
import { runGatewayExplain } from './explain.js';
import { kubernetesCliDiscovery } from '@switchyard/kubernetes';
import { attachKubernetes } from './kubernetes.js';

/**
 * I/O of {@link runGatewayCli}, injectable for tests.
 * @public
 * @category CLI
 */
export interface GatewayCliIo {
  /** Writes a line of output (help text). */
  readonly out: (line: string) => void;
  /** Writes a line of diagnostics (startup, errors). */
  readonly err: (line: string) => void;
  /** Where the JSON log lines go. @default process.stdout */
  readonly logSink?: LogSink;
  /** Extra plugin types for every pool. */
  readonly plugins?: readonly PluginDefinition[];
}

/**
 * A started CLI gateway, or the exit code when it did not start (help, bad arguments, bad config).
 * @public
 * @category CLI
 */
export type GatewayCliResult = { readonly kind: 'running'; readonly gateway: Gateway; readonly url: string } | { readonly kind: 'exit'; readonly code: number };

/**
 * Runs `switchyard-gateway` with `argv` (without node and script): parses flags, loads the config
 * file, builds the gateway and starts listening. Errors are printed, never thrown.
 * @public
 * @category CLI
 */
export async function runGatewayCli(argv: readonly string[], io: GatewayCliIo): Promise<GatewayCliResult> {
  try {
    if (argv[0] === 'explain') return { kind: 'exit', code: await runGatewayExplain(argv.slice(1), io) };
    const args = parseGatewayArgs(argv);
    if (args.help) {
      io.out(GATEWAY_USAGE);
      return { kind: 'exit', code: 0 };
    }
    let text = await readFlagFile('--config', args.config, io);
    if (text === false) return { kind: 'exit', code: 2 };
    if (text === undefined && args.profile !== undefined) text = routingProfileConfig(args.profile);
    const resources = await readFlagFile('--resources', args.resources, io);
    if (resources === false) return { kind: 'exit', code: 2 };
    const otel = args.otel ? await loadOpenTelemetry() : undefined;
    if (args.otel && otel === undefined) io.err('switchyard-gateway: --otel: @opentelemetry/api is not installed; no spans');
    const kube = kubernetesCliDiscovery(args.kubernetes);
    let gateway = await createGatewayFromConfig({
      ...(otel === undefined ? {} : { tracer: openTelemetryDecisionTracer(otel) }),
      ...(text === undefined ? {} : { config: text }),
      // Discovery fills the one pool; the IPP ConfigMaps tell which model names it serves.
      ...(kube === undefined ? {} : { emptyPool: true, modelCatalogue: kube.modelMappings }),
      ...(args.config === undefined ? {} : { configPath: args.config }),
      ...(resources === undefined ? {} : { resources, resourcesPath: `--resources ${args.resources ?? ''}` }),
      ...(args.endpoints === undefined ? {} : { endpoints: args.endpoints }),
      ...(args.port === undefined ? {} : { port: args.port }),
      ...(args.host === undefined ? {} : { host: args.host }),
      ...(args.console ? { console: true } : {}),
      ...(args.decisionTraceHeader ? { decisionTraceHeader: true } : {}),
      ...(args.redisUrl === undefined ? {} : { redisUrl: args.redisUrl }),
      ...(args.trustClassificationHeaders === undefined ? {} : { handler: { trustClassificationHeaders: args.trustClassificationHeaders } }),
      onRequestEnd: requestLogger(createLogger({ level: args.logLevel, format: args.logFormat, name: 'switchyard-gateway', ...(io.logSink === undefined ? {} : { sink: io.logSink }) })),
      plugins: io.plugins ?? [],
      ...(kube === undefined ? {} : { packs: kube.packs }),
      log: io.err,
    });
    if (kube !== undefined) {
      const built = gateway;
      gateway = await attachKubernetes(built, kube, io.err).catch(async (err: unknown) => {
        await built.close();
        throw err;
      });
    }
    const { url, metricsUrl } = await gateway.listen();
    const pools = gateway.pools.map((p) => `${p.pool.name} (${p.source.size} endpoints)`).join(', ');
    const shared = gateway.sharedState === undefined ? '' : `; sharing state as replica "${gateway.sharedState.replicaId}" every ${gateway.sharedState.syncIntervalMs} ms`;
    io.err(`switchyard-gateway listening on ${url}; pools: ${pools}${gateway.console === undefined ? '' : `; console at ${url}/console`}${metricsUrl === undefined ? '' : `; /metrics on ${metricsUrl}`}${shared}`);
    return { kind: 'running', gateway, url };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    io.err(`switchyard-gateway: ${message}`);
    if (isSwitchyardError(err) && err.code === 'CONFIG_INVALID') io.err('run with --help for usage');
    return { kind: 'exit', code: isSwitchyardError(err) ? 2 : 1 };
  }
}

/** The text of the file a flag names (undefined when the flag is absent), or false once it said why it cannot be read. */
async function readFlagFile(flag: string, path: string | undefined, io: GatewayCliIo): Promise<string | undefined | false> {
  if (path === undefined) return undefined;
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    io.err(`switchyard-gateway: cannot read ${flag} ${path}: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
}
