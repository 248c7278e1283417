import { parseArgs } from 'node:util';
import { SwitchyardError, parseLogLevel, type LogLevel } from '@switchyard/core';
import { ROUTING_PROFILES, type RoutingProfileName } from '@switchyard/prefix-index';
import { LLMD_FLAGS_USAGE, takeLlmdFlags, type LlmdFlags } from './llm-d-flags.js';
import { kubernetesCliOptions, kubernetesCliUsage, kubernetesFlagValues, type KubernetesCliValues } from '@switchyard/kubernetes';
import { EPP_SHARED_STATE_FLAGS, EPP_SHARED_STATE_USAGE, redisUrlFlag } from './shared-state.js';
import { EPP_DEFAULTS } from '../epp/defaults.js';
import { workersFlag } from './workers-flag.js';
import type { EppTransport } from '../grpc/options.js';

/**
 * Parsed command line of `switchyard-epp`.
 * @public
 * @category CLI
 */
export interface EppCliArgs {
  /** EndpointPickerConfig file (YAML or JSON); llm-d defaults when absent. */
  readonly config: string | undefined;
  /** Built-in routing profile used when no `--config` is given (`switchyard` or `llm-d`). */
  readonly profile: RoutingProfileName | undefined;
  /** Endpoints given on the command line. */
  readonly endpoints: readonly string[] | undefined;
  /** InferenceObjective / InferenceModelRewrite manifests file. */
  readonly resources: string | undefined;
  /** File listing endpoints (one `ip:port` per line or comma-separated; `#` comments). */
  readonly endpointsFile: string | undefined;
  /** Interface both ports bind to. */
  readonly host: string;
  /** ext_proc + health gRPC port. */
  readonly grpcPort: number;
  /** Health-only gRPC port (`--grpc-health-port`), or undefined for none. */
  readonly grpcHealthPort: number | undefined;
  /** Prometheus `/metrics` port. */
  readonly metricsPort: number;
  /** gRPC transport (`--transport`); undefined = `startEpp`'s default. */
  readonly transport: EppTransport | undefined;
  /** TLS certificate file (PEM), with `tlsKey`. */
  readonly tlsCert: string | undefined;
  /** TLS private key file (PEM), with `tlsCert`. */
  readonly tlsKey: string | undefined;
  /** Model-server metrics poll interval, ms; undefined = the config's metrics-data-source interval (default 50). */
  readonly scrapeIntervalMs: number | undefined;
  /** Largest request body, bytes. */
  readonly maxBodyBytes: number | undefined;
  /**
   * `--trust-classification-headers`: read x-llm-d-* classification headers from requests
   * (`EPP_CLI_DEFAULTS`: true, llm-d's behaviour behind Envoy).
   */
  readonly trustClassificationHeaders: boolean;
  /** Deprecated flags that were given (`--trust-headers`): the CLI logs each once. */
  readonly deprecatedFlags: readonly string[];
  /** Serve the operator console at `/console` on the metrics port (the config's `console.enabled` otherwise). */
  readonly console: boolean;
  /** Add the compact decision trace header to every response (the config's `console.traceHeader` otherwise). */
  readonly decisionTraceHeader: boolean;
  /** Least severe log level written (request lines: failures at warn, successes at debug). */
  readonly logLevel: LogLevel;
  /** Log line format. */
  readonly logFormat: 'auto' | 'json' | 'pretty';
  /** Emit OpenTelemetry spans through `@opentelemetry/api` (with the SDK the process registered). */
  readonly otel: boolean;
  /** Kubernetes discovery and leader-election flags, as given (validated by `@switchyard/kubernetes`). */
  readonly kubernetes: KubernetesCliValues;
  /** Redis shared with the other EPP replicas (overrides `switchyard.sharedState.redisUrl`). */
  readonly redisUrl: string | undefined;
  /**
   * `--workers N`: EPP processes on the same ports (a node:cluster primary forks N workers that
   * share in-flight load over IPC). 1 (the default) is one process, no cluster.
   */
  readonly workers: number;
  /** Print usage and exit. */
  readonly help: boolean;
  /** What llm-d's EPP flags asked for (`--config-text`, `--emit-endpoint-scores`, flags without effect). */
  readonly llmd: LlmdFlags;
}

/**
 * Usage text of the CLI. @public
 * @category CLI
 */
export const EPP_USAGE = `Usage: switchyard-epp [--config FILE | --profile switchyard|llm-d] [--endpoints ip:port,... | --endpoints-file FILE]
                      [--resources FILE]
                      [--grpc-port 9002] [--grpc-health-port 9003] [--metrics-port 9090] [--host ADDR]
                      [--tls-cert FILE --tls-key FILE] [--transport grpc-js|http2] [--scrape-interval-ms 50]
                      [--max-body-bytes N] [--trust-classification-headers true|false] [--console] [--decision-trace-header]
                      [--log-level info] [--log-format auto|json|pretty] [--otel]
                      [--redis-url redis://host:6379] [--workers N]
       switchyard-epp explain --config FILE --request body.json [--metrics snapshot.json] [--json]

Runs Switchyard as an Envoy ext_proc Endpoint Picker (Gateway API Inference Extension protocol).

  --config FILE             llm-d EndpointPickerConfig (YAML or JSON); llm-d defaults when omitted
  --profile P               built-in routing profile instead of --config: llm-d (default) or
                            switchyard (lowest estimated TTFT, docs/scheduling.md)
  --endpoints LIST          comma-separated ip:port model servers of the pool
  --endpoints-file FILE     file of ip:port entries (one per line or comma-separated, # comments)
  --resources FILE          InferenceObjective / InferenceModelRewrite manifests (YAML or JSON;
                            other kinds in the file are ignored)
  --grpc-port N             ext_proc and grpc.health.v1 port (default 9002)
  --grpc-health-port N      grpc.health.v1 alone, for probes (llm-d's; default 9003 when --grpc-port
                            is not given, else none unless given)
  --metrics-port N          Prometheus /metrics port (default 9090)
  --host ADDR               bind address of both ports (default 0.0.0.0)
  --tls-cert FILE           serve gRPC over TLS with this PEM certificate (needs --tls-key)
  --tls-key FILE            PEM private key of --tls-cert
  --transport T             who speaks gRPC on both ports: http2 (default: gRPC framed on
                            node:http2, no gRPC library) or grpc-js (@grpc/grpc-js; docs/envoy.md)
  --scrape-interval-ms N    model-server /metrics poll interval (default: the config's
                            metrics-data-source interval, else 50; minimum 50)
  --max-body-bytes N        largest request body accepted (default 16 MiB)
  --trust-classification-headers BOOL
                            read x-llm-d-* classification headers (priority, fairness id, model
                            rewrite) from requests. Default true, as llm-d's EPP: it trusts what
                            Envoy forwards, so the gateway in front must set or strip them. (The
                            library default, startEpp, is false; docs/security.md)
  --trust-headers BOOL      deprecated name of --trust-classification-headers
  --console                 serve the operator console at /console on the metrics port (off by
                            default: it shows tenants and models; also console.enabled in the config)
  --decision-trace-header   add x-switchyard-decision-trace (model, classification, candidates,
                            picked, filters, best scores, scorers) to every response; the full
                            trace is in the console (also console.traceHeader in the config)
  --log-level L             trace, debug, info (default), warn, error, fatal or silent; one JSON
                            line per failed request at warn, per successful one at debug
  --log-format F            json, pretty, or auto (default: pretty on a terminal, JSON otherwise)
  --otel                    OpenTelemetry spans per request through @opentelemetry/api, exported
                            by the SDK the process registers (node --import)
  --workers N               run N EPP worker processes on the same ports (node:cluster; default 1,
                            at most 4 × the CPUs); they share in-flight load and routing history
                            through the primary process, or through --redis-url when given. A
                            worker that dies is restarted; docs/replicas.md
  -h, --help                show this help

explain prints the decision and its full trace for one request, offline: see explain --help.
Kubernetes discovery, instead of --endpoints (llm-d's flags; needs @kubernetes/client-node):
${kubernetesCliUsage('epp')}${EPP_SHARED_STATE_USAGE}
${LLMD_FLAGS_USAGE}`;

function port(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new SwitchyardError('CONFIG_INVALID', `${flag}: expected an integer in 0..65535, got "${raw}"`);
  return n;
}

function positive(flag: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new SwitchyardError('CONFIG_INVALID', `${flag}: expected an integer ≥ ${min}, got "${raw}"`);
  return n;
}

/**
 * Parses the command line.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad flag
 * @public
 * @category CLI
 */
export function parseEppArgs(argv: readonly string[]): EppCliArgs {
  const { argv: ours, llmd } = takeLlmdFlags(argv);
  let values;
  try {
    ({ values } = parseArgs({
      args: ours,
      options: {
        config: { type: 'string', short: 'c' },
        profile: { type: 'string' },
        endpoints: { type: 'string', short: 'e' },
        'endpoints-file': { type: 'string' },
        resources: { type: 'string', short: 'r' },
        host: { type: 'string' },
        'grpc-port': { type: 'string' },
        'grpc-health-port': { type: 'string' },
        'metrics-port': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        transport: { type: 'string' },
        'scrape-interval-ms': { type: 'string' },
        'max-body-bytes': { type: 'string' },
        'trust-classification-headers': { type: 'string' },
        'trust-headers': { type: 'string' },
        console: { type: 'boolean' },
        'decision-trace-header': { type: 'boolean' },
        'log-level': { type: 'string' },
        'log-format': { type: 'string' },
        otel: { type: 'boolean' },
        workers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        ...kubernetesCliOptions('epp'),
        ...EPP_SHARED_STATE_FLAGS,
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', err instanceof Error ? err.message : String(err));
  }
  if (values.endpoints !== undefined && values['endpoints-file'] !== undefined) {
    throw new SwitchyardError('CONFIG_INVALID', '--endpoints and --endpoints-file: give one or the other');
  }
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) {
    throw new SwitchyardError('CONFIG_INVALID', '--tls-cert and --tls-key: give both to enable TLS, or neither');
  }
  if (llmd.secureServing === false && values['tls-cert'] !== undefined) {
    throw new SwitchyardError('CONFIG_INVALID', '--secure-serving=false and --tls-cert/--cert-path: plaintext or TLS, give one or the other');
  }
  const trust = trustFlag(values['trust-classification-headers'], values['trust-headers']);
  const endpoints = values.endpoints === undefined ? undefined : splitEndpoints(values.endpoints);
  if (endpoints?.length === 0) throw new SwitchyardError('CONFIG_INVALID', '--endpoints: expected at least one ip:port');
  const logFormat = values['log-format'] ?? 'auto';
  if (logFormat !== 'auto' && logFormat !== 'json' && logFormat !== 'pretty') throw new SwitchyardError('CONFIG_INVALID', `--log-format: expected auto, json or pretty, got "${logFormat}"`);
  const profile = values.profile;
  if (profile !== undefined && !(ROUTING_PROFILES as readonly string[]).includes(profile)) throw new SwitchyardError('CONFIG_INVALID', `--profile: expected ${ROUTING_PROFILES.join(' or ')}, got "${profile}"`);
  const transport = values.transport;
  if (transport !== undefined && transport !== 'grpc-js' && transport !== 'http2') throw new SwitchyardError('CONFIG_INVALID', `--transport: expected grpc-js or http2, got "${transport}"`, { field: '--transport' });
  if (llmd.configText !== undefined && values.config !== undefined) throw new SwitchyardError('CONFIG_INVALID', '--config-text and --config/--config-file: give one or the other');
  if (profile !== undefined && values.config !== undefined) throw new SwitchyardError('CONFIG_INVALID', '--profile and --config: give one or the other (a config file carries its own profiles)');
  return {
    llmd,
    config: values.config,
    profile: profile as RoutingProfileName | undefined,
    endpoints,
    endpointsFile: values['endpoints-file'],
    resources: values.resources,
    host: values.host ?? EPP_DEFAULTS.host,
    grpcPort: port('--grpc-port', values['grpc-port'], EPP_DEFAULTS.grpcPort),
    // llm-d's layout (9002 + 9003) by default; a chosen gRPC port (tests use 0) gets no second port unless asked.
    grpcHealthPort: values['grpc-health-port'] === undefined && values['grpc-port'] !== undefined ? undefined : port('--grpc-health-port', values['grpc-health-port'], EPP_CLI_DEFAULTS.grpcHealthPort),
    metricsPort: port('--metrics-port', values['metrics-port'], EPP_DEFAULTS.metricsPort === false ? 0 : EPP_DEFAULTS.metricsPort),
    transport,
    tlsCert: values['tls-cert'],
    tlsKey: values['tls-key'],
    scrapeIntervalMs: positive('--scrape-interval-ms', values['scrape-interval-ms'], 50),
    maxBodyBytes: positive('--max-body-bytes', values['max-body-bytes'], 1),
    trustClassificationHeaders: trust ?? EPP_CLI_DEFAULTS.trustClassificationHeaders,
    deprecatedFlags: values['trust-headers'] === undefined ? [] : ['--trust-headers'],
    console: values.console === true,
    decisionTraceHeader: values['decision-trace-header'] === true,
    logLevel: parseLogLevel(values['log-level'] ?? 'info'),
    logFormat,
    otel: values.otel === true,
    kubernetes: kubernetesFlagValues(values, 'epp'),
    redisUrl: redisUrlFlag(values),
    workers: workersFlag(values.workers),
    help: values.help === true,
  };
}

/**
 * The defaults in which `switchyard-epp` differs from `startEpp` (`EPP_DEFAULTS`), on purpose:
 * llm-d's EPP trusts the classification headers Envoy forwards and serves health alone on 9003.
 * @public
 * @category CLI
 */
export const EPP_CLI_DEFAULTS: { readonly trustClassificationHeaders: boolean; readonly grpcHealthPort: number } = Object.freeze({
  trustClassificationHeaders: true,
  grpcHealthPort: 9003,
});

/** `--trust-classification-headers`, or its deprecated name `--trust-headers`; undefined when neither is given. */
function trustFlag(current: string | undefined, deprecated: string | undefined): boolean | undefined {
  const read = (flag: string, raw: string | undefined): boolean | undefined => {
    if (raw === undefined) return undefined;
    if (raw !== 'true' && raw !== 'false') throw new SwitchyardError('CONFIG_INVALID', `${flag}: expected true or false, got "${raw}"`, { field: flag });
    return raw === 'true';
  };
  const a = read('--trust-classification-headers', current);
  const b = read('--trust-headers', deprecated);
  if (a !== undefined && b !== undefined && a !== b) throw new SwitchyardError('CONFIG_INVALID', '--trust-headers is the deprecated name of --trust-classification-headers: give one', { field: '--trust-headers' });
  return a ?? b;
}

/**
 * Splits an endpoint list: entries separated by commas, whitespace or newlines; `#` starts a
 * comment that runs to the end of the line. Used for `--endpoints` and `--endpoints-file`.
 * @public
 * @category CLI
 */
export function splitEndpoints(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const hash = line.indexOf('#');
    const content = hash === -1 ? line : line.slice(0, hash);
    for (const entry of content.split(/[,\s]+/)) if (entry !== '') out.push(entry);
  }
  return out;
}
