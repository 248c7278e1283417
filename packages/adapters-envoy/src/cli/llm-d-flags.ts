import { SwitchyardError, durationOrError } from '@switchyard/core';

/**
 * llm-d EPP flags `switchyard-epp` understands besides its own, so the llm-d chart's values can
 * drive it (llm-d's `pkg/epp/server/options.go` names and defaults). Ours stay as they are;
 * these are translated to them, acted on directly, or accepted and reported as not acted on.
 * @public
 * @category CLI
 */
export interface LlmdFlags {
  /** `--config-text`: the EndpointPickerConfig inline. */
  readonly configText: string | undefined;
  /** `--emit-endpoint-scores`: candidates' scores in the `envoy.lb` metadata. */
  readonly emitEndpointScores: boolean;
  /** `--enable-grpc-stream-metrics`: record the ext_proc stream families. */
  readonly grpcStreamMetrics: boolean;
  /**
   * `--secure-serving`: true serves TLS, with a self-signed certificate generated at start when
   * no `--tls-cert`/`--cert-path` is given (as llm-d does); false serves plaintext; undefined when
   * not given (TLS exactly when certificate files are given).
   */
  readonly secureServing: boolean | undefined;
  /** llm-d flags given that have no effect here, with why (logged once at startup). */
  readonly notActedOn: readonly string[];
}

/** Flags renamed to ours: llm-d name → our name. */
const RENAMED: Readonly<Record<string, string>> = { 'config-file': 'config' };

/** llm-d flags accepted without effect, with the reason printed at startup. */
const NOT_ACTED_ON: Readonly<Record<string, string>> = {
  'health-checking': 'grpc.health.v1 is always registered on the ext_proc port',
  'enable-pprof': 'no pprof endpoints in Node; use --inspect',
  tracing: 'tracing is --otel',
  v: 'verbosity is --log-level',
  'zap-devel': 'logging is --log-level / --log-format',
  'zap-encoder': 'logging is --log-format',
  'zap-log-level': 'logging is --log-level',
  'zap-stacktrace-level': 'no stack-trace level',
  'zap-time-encoding': 'log lines carry epoch milliseconds',
  'allow-experimental-plugins': 'every plugin type loads without it',
  'refresh-prometheus-metrics-interval': 'pool gauges are computed at scrape time',
  'metrics-endpoint-auth': 'the metrics port has no Kubernetes authn/authz filter',
  'enable-cert-reload': 'certificates are read once at startup',
};

/** Deprecated llm-d flags that llm-d itself rejects when set. */
const REJECTED = ['total-queued-requests-metric', 'total-running-requests-metric', 'kv-cache-usage-percentage-metric', 'lora-info-metric', 'cache-info-metric'];

const BOOLEAN = new Set(['emit-endpoint-scores', 'secure-serving', 'health-checking', 'enable-pprof', 'tracing', 'zap-devel', 'allow-experimental-plugins', 'enable-grpc-stream-metrics', 'metrics-endpoint-auth', 'enable-cert-reload']);

/** `--cert-path DIR` and `--refresh-metrics-interval D` translate to our flags. */
function translated(name: string, value: string): string[] | undefined {
  if (name === 'cert-path') return value === '' ? [] : ['--tls-cert', `${value.replace(/\/$/, '')}/tls.crt`, '--tls-key', `${value.replace(/\/$/, '')}/tls.key`];
  if (name === 'refresh-metrics-interval') {
    const ms = durationOrError(value);
    if (typeof ms === 'string') throw new SwitchyardError('CONFIG_INVALID', `--refresh-metrics-interval: ${ms}`);
    // llm-d clamps values below its 50 ms base tick.
    return ['--scrape-interval-ms', String(Math.max(50, Math.round(ms)))];
  }
  return undefined;
}

/** The usage lines of these flags (appended to `--help`). */
export const LLMD_FLAGS_USAGE = `llm-d EPP flags (the llm-d chart's values work as they are):
  --config-file FILE        same as --config
  --config-text TEXT        the EndpointPickerConfig inline (instead of --config)
  --emit-endpoint-scores    add x-gateway-destination-endpoint-scores to envoy.lb metadata
  --cert-path DIR           DIR/tls.crt and DIR/tls.key (same as --tls-cert/--tls-key)
  --refresh-metrics-interval D   same as --scrape-interval-ms (duration, floor 50ms)
  --enable-grpc-stream-metrics   record llm_d_epp_extproc_streams_inflight, _stream_duration_seconds, _streams_total
  --secure-serving[=false]  TLS on the ext_proc port; without --tls-cert/--cert-path a
                            self-signed certificate is generated at start (=false: plaintext)
  --health-checking, --tracing, --v, --zap-*,
  --enable-pprof, --allow-experimental-plugins,
  --refresh-prometheus-metrics-interval, --metrics-endpoint-auth, --enable-cert-reload
                            accepted; startup names each one given that has no effect here
`;

/**
 * Splits llm-d's flags out of `argv`: renamed and translated ones become ours, the rest are
 * read here. Returns our remaining arguments and what the llm-d flags asked for.
 * @throws SwitchyardError `CONFIG_INVALID` for a flag llm-d rejects too, or a bad value
 */
export function takeLlmdFlags(argv: readonly string[]): { argv: string[]; llmd: LlmdFlags } {
  const out: string[] = [];
  const notActedOn: string[] = [];
  let configText: string | undefined;
  let emitEndpointScores = false;
  let grpcStreamMetrics = false;
  let secureServing: boolean | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const m = /^--?([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(arg);
    const name = m?.[1];
    if (m === null || name === undefined || !(name in RENAMED || name in NOT_ACTED_ON || BOOLEAN.has(name) || REJECTED.includes(name) || ['config-text', 'cert-path', 'refresh-metrics-interval'].includes(name))) {
      out.push(arg);
      continue;
    }
    let value = m[2];
    if (value === undefined && !BOOLEAN.has(name)) {
      value = argv[++i];
      if (value === undefined) throw new SwitchyardError('CONFIG_INVALID', `--${name}: expected a value`);
    }
    if (REJECTED.includes(name)) throw new SwitchyardError('CONFIG_INVALID', `--${name} is deprecated and rejected (as llm-d rejects it): configure metrics via engineConfigs of core-metrics-extractor`);
    const renamed = RENAMED[name];
    if (renamed !== undefined) {
      out.push(`--${renamed}`, value as string);
      continue;
    }
    const ours = translated(name, value ?? '');
    if (ours !== undefined) {
      out.push(...ours);
      continue;
    }
    if (name === 'config-text') {
      configText = value;
      continue;
    }
    if (BOOLEAN.has(name) && value !== undefined && value !== 'true' && value !== 'false') throw new SwitchyardError('CONFIG_INVALID', `--${name}: expected true or false, got "${value}"`);
    if (name === 'emit-endpoint-scores') {
      emitEndpointScores = value !== 'false';
      continue;
    }
    if (name === 'secure-serving') {
      secureServing = value !== 'false';
      continue;
    }
    if (name === 'enable-grpc-stream-metrics') {
      grpcStreamMetrics = value !== 'false';
      continue;
    }
    notActedOn.push(`--${name}: ${NOT_ACTED_ON[name] ?? 'not acted on'}`);
  }
  return { argv: out, llmd: { configText, emitEndpointScores, grpcStreamMetrics, secureServing, notActedOn } };
}
