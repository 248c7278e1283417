import { parseArgs } from 'node:util';
import { SwitchyardError, parseLogLevel, type LogLevel } from '@switchyard/core';
import { ROUTING_PROFILES, type RoutingProfileName } from '@switchyard/prefix-index';
import { kubernetesCliOptions, kubernetesCliUsage, kubernetesFlagValues, wantsKubernetes, type KubernetesCliValues } from '@switchyard/kubernetes';
import { GATEWAY_SHARED_STATE_FLAGS, GATEWAY_SHARED_STATE_USAGE, redisUrlFlag } from './shared-state.js';

/**
 * Parsed command line of `switchyard-gateway`.
 * @public
 * @category CLI
 */
export interface GatewayCliArgs {
  /** EndpointPickerConfig file (YAML or JSON), optionally with a `gateway` section. */
  readonly config: string | undefined;
  /** Built-in routing profile used when no `--config` is given (`switchyard` or `llm-d`). */
  readonly profile: RoutingProfileName | undefined;
  /** InferenceObjective / InferenceModelRewrite manifests file. */
  readonly resources: string | undefined;
  /** Endpoints given on the command line (one pool, no model registry). */
  readonly endpoints: readonly string[] | undefined;
  /** Listen port (overrides the config). */
  readonly port: number | undefined;
  /** Listen host (overrides the config). */
  readonly host: string | undefined;
  /** Serve the operator console at `/console` (`gateway.console.enabled` otherwise). */
  readonly console: boolean;
  /** Add the compact decision trace header to every response (`gateway.console.traceHeader` otherwise). */
  readonly decisionTraceHeader: boolean;
  /** Least severe log level written (request lines: failures at warn, successes at debug). */
  readonly logLevel: LogLevel;
  /** Log line format. */
  readonly logFormat: 'auto' | 'json' | 'pretty';
  /** Emit OpenTelemetry spans through `@opentelemetry/api` (with the SDK the process registered). */
  readonly otel: boolean;
  /** Kubernetes discovery flags, as given (validated by `@switchyard/kubernetes`'s `kubernetesCliDiscovery`). */
  readonly kubernetes: KubernetesCliValues;
  /**
   * `--trust-classification-headers`: honour clients' `x-llm-d-*` classification headers (true)
   * or nobody's (false), overriding `gateway.trust`; undefined when not given.
   */
  readonly trustClassificationHeaders: boolean | undefined;
  /** Redis shared with the other gateway replicas (overrides `gateway.sharedState.redisUrl`). */
  readonly redisUrl: string | undefined;
  /** Print usage and exit. */
  readonly help: boolean;
}

/**
 * Usage text of the CLI. @public
 * @category CLI
 */
export const GATEWAY_USAGE = `Usage: switchyard-gateway [--config FILE | --profile switchyard|llm-d] [--endpoints ip:port,...] [--resources FILE] [--port N] [--host ADDR] [--console] [--decision-trace-header]
                          [--trust-classification-headers true|false]
                          [--log-level info] [--log-format auto|json|pretty] [--otel]
                          [--redis-url redis://host:6379]
       switchyard-gateway explain --config FILE --request body.json [--metrics snapshot.json] [--path P] [--json]

Runs an OpenAI-compatible inference gateway that schedules every request with Switchyard.

  --config FILE        llm-d EndpointPickerConfig (YAML or JSON) with an optional "gateway"
                       section (pools, models, endpoints, trust); llm-d defaults when omitted
  --profile P          built-in routing profile instead of --config: llm-d (default: llm-d's
                       default scorers) or switchyard (lowest estimated TTFT, docs/scheduling.md)
  --endpoints LIST     comma-separated ip:port model servers: one pool, every model name is
                       forwarded to it, /v1/models comes from the servers themselves
  --resources FILE     InferenceObjective / InferenceModelRewrite manifests (YAML or JSON;
                       other kinds skipped): priority bands for x-gateway-inference-objective
                       (trusted clients only, gateway.trust) and model rewrites
  --port N             listen port (default 8080, or gateway.listen.port)
  --host ADDR          listen address (default 0.0.0.0, or gateway.listen.host)
  --trust-classification-headers BOOL
                       honour x-llm-d-* classification headers (priority, fairness id, model
                       rewrite) from clients: true from every client, false from none; overrides
                       gateway.trust. Default false (gateway.trust.classificationHeaders): a
                       gateway faces clients, see docs/security.md. They are never forwarded
  --console            serve the operator console at /console (off by default: it shows
                       tenants and models; also gateway.console.enabled in the config)
  --decision-trace-header
                       add x-switchyard-decision-trace (model, classification, candidates,
                       picked, filters, best scores, scorers) to every response; the full
                       trace is in the console (also gateway.console.traceHeader)
  --log-level L        trace, debug, info (default), warn, error, fatal or silent; one JSON line
                       per failed request at warn, per successful one at debug
  --log-format F       json, pretty, or auto (default: pretty on a terminal, JSON otherwise)
  --otel               OpenTelemetry spans per request (parse is not yet covered) through
                       @opentelemetry/api, exported by the SDK the process registers (node --import)
  -h, --help           show this help

explain prints the decision and its full trace for one request, offline: see explain --help.
Kubernetes discovery of the single pool, instead of --endpoints (llm-d's flags; needs
@kubernetes/client-node):
${kubernetesCliUsage('gateway')}${GATEWAY_SHARED_STATE_USAGE}`;

/**
 * Parses the command line.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad flag
 * @public
 * @category CLI
 */
export function parseGatewayArgs(argv: readonly string[]): GatewayCliArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        config: { type: 'string', short: 'c' },
        profile: { type: 'string' },
        endpoints: { type: 'string', short: 'e' },
        resources: { type: 'string', short: 'r' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        console: { type: 'boolean' },
        'decision-trace-header': { type: 'boolean' },
        'trust-classification-headers': { type: 'string' },
        'log-level': { type: 'string' },
        'log-format': { type: 'string' },
        otel: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...kubernetesCliOptions('gateway'),
        ...GATEWAY_SHARED_STATE_FLAGS,
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', err instanceof Error ? err.message : String(err));
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SwitchyardError('CONFIG_INVALID', `--port: expected an integer in 0..65535, got "${values.port}"`);
  }
  const endpoints = values.endpoints
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (endpoints?.length === 0) throw new SwitchyardError('CONFIG_INVALID', '--endpoints: expected at least one ip:port');
  const format = values['log-format'] ?? 'auto';
  if (format !== 'auto' && format !== 'json' && format !== 'pretty') throw new SwitchyardError('CONFIG_INVALID', `--log-format: expected auto, json or pretty, got "${format}"`);
  const logLevel = parseLogLevel(values['log-level'] ?? 'info');
  const kubernetes = kubernetesFlagValues(values, 'gateway');
  if (endpoints !== undefined && wantsKubernetes(kubernetes)) throw new SwitchyardError('CONFIG_INVALID', '--endpoints and --pool-name/--endpoint-selector: give one or the other');
  const trust = values['trust-classification-headers'];
  if (trust !== undefined && trust !== 'true' && trust !== 'false') throw new SwitchyardError('CONFIG_INVALID', `--trust-classification-headers: expected true or false, got "${trust}"`, { field: '--trust-classification-headers' });
  const profile = values.profile;
  if (profile !== undefined && !(ROUTING_PROFILES as readonly string[]).includes(profile)) throw new SwitchyardError('CONFIG_INVALID', `--profile: expected ${ROUTING_PROFILES.join(' or ')}, got "${profile}"`);
  if (profile !== undefined && values.config !== undefined) throw new SwitchyardError('CONFIG_INVALID', '--profile and --config: give one or the other (a config file carries its own profiles)');
  return { config: values.config, profile: profile as RoutingProfileName | undefined, resources: values.resources, endpoints, port, host: values.host, console: values.console === true, decisionTraceHeader: values['decision-trace-header'] === true, logLevel, logFormat: format, otel: values.otel === true, kubernetes, trustClassificationHeaders: trust === undefined ? undefined : trust === 'true', redisUrl: redisUrlFlag(values), help: values.help === true };
}
