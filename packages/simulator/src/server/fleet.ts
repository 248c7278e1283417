import { SwitchyardError } from '@switchyard/core';
import type { MetricsFlavor } from '../engine/metrics-view.js';
import type { KvEventEncoding } from '../engine/kv-event-encoding.js';
import type { EngineConfigInput } from '../engine/config.js';
import { ModelServer } from './model-server.js';

/**
 * Options of {@link startFleet}.
 * @public
 * @category Server
 */
export interface FleetOptions {
  /** Number of pods (default 2). */
  readonly pods?: number;
  /** Port of pod 0; pod i listens on basePort + i (default 0 = ephemeral ports). */
  readonly basePort?: number;
  /** Listen host (default 127.0.0.1). */
  readonly host?: string;
  /** Engine profile name (default `8b-h100`). */
  readonly profile?: string;
  /** Engine overrides applied to every pod (each pod gets seed + i). */
  readonly overrides?: EngineConfigInput['overrides'];
  /** Model time runs this many times faster than real time (default 1). */
  readonly timeScale?: number;
  /**
   * Publish KV events: pod i binds PUB on zmqBasePort + 2i and its replay ROUTER on
   * zmqBasePort + 2i + 1 (vLLM's defaults 5557/5558 for pod 0 when zmqBasePort is 5557).
   * 0 picks free ports. Omitted = no KV events.
   */
  readonly zmqBasePort?: number;
  /** KV event encoding (default `map`). */
  readonly kvEventEncoding?: KvEventEncoding;
  /** `/metrics` flavour (default `vllm`). */
  readonly metricsFlavor?: MetricsFlavor;
  /** `full`: pods serve a real vLLM page's every family (≈30 KB), not only the modelled ones. Default `modelled`. */
  readonly metricsExposition?: 'modelled' | 'full';
  /** Lean mode: each pod re-renders `/metrics` at most once per this many ms (default 0: every scrape). */
  readonly metricsCacheMs?: number;
  /** Pod name prefix (default `sim`): pods are named `<prefix>-<i>`. */
  readonly namePrefix?: string;
}

/**
 * One pod of a started fleet.
 * @public
 * @category Server
 */
export interface FleetEndpoint {
  /** Pod name. */
  readonly name: string;
  /** `host:port` (what an EndpointPool takes). */
  readonly address: string;
  /** Base URL. */
  readonly url: string;
  /** HTTP port. */
  readonly port: number;
  /** KV-event PUB endpoint, when publishing. */
  readonly zmqEndpoint: string | undefined;
  /** KV-event replay endpoint, when publishing. */
  readonly replayEndpoint: string | undefined;
  /** KV-event topic, when publishing. */
  readonly topic: string | undefined;
  /** The server (and through it, the engine). */
  readonly server: ModelServer;
}

/**
 * A running fleet of simulated pods.
 * @public
 * @category Server
 */
export interface Fleet {
  /** Pods in order. */
  readonly endpoints: readonly FleetEndpoint[];
  /** Stops every pod. */
  close(): Promise<void>;
}

/**
 * Starts `pods` simulated vLLM servers on consecutive ports (and ZeroMQ publishers when
 * `zmqBasePort` is set). If any pod fails to start, the ones already started are closed.
 * @example
 * ```ts
 * const fleet = await startFleet({ pods: 4, basePort: 8000, profile: '8b-h100', timeScale: 10 });
 * console.log(fleet.endpoints.map((e) => e.url));
 * await fleet.close();
 * ```
 * @public
 * @category Server
 */
export async function startFleet(options: FleetOptions = {}): Promise<Fleet> {
  const pods = options.pods ?? 2;
  if (!Number.isInteger(pods) || pods < 1) throw new SwitchyardError('CONFIG_INVALID', `pods: expected a positive integer, got ${String(pods)}`);
  const host = options.host ?? '127.0.0.1';
  const basePort = options.basePort ?? 0;
  const started: FleetEndpoint[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(started.map((e) => e.server.close()));
  };
  try {
    for (let i = 0; i < pods; i++) {
      const name = `${options.namePrefix ?? 'sim'}-${i}`;
      const zmq = options.zmqBasePort;
      const zhost = host.includes(':') ? `[${host}]` : host;
      const port = (p: number): string => (zmq === 0 ? '*' : String(p));
      const server = new ModelServer({
        podName: name,
        profile: options.profile ?? '8b-h100',
        overrides: { ...(options.overrides ?? {}), seed: (options.overrides?.seed ?? 0) + i },
        timeScale: options.timeScale ?? 1,
        metricsFlavor: options.metricsFlavor ?? 'vllm',
        metricsExposition: options.metricsExposition ?? 'modelled',
        metricsCacheMs: options.metricsCacheMs ?? 0,
        ...(zmq === undefined
          ? {}
          : { kvEvents: { endpoint: `tcp://${zhost}:${port((zmq) + 2 * i)}`, replayEndpoint: `tcp://${zhost}:${port(zmq + 2 * i + 1)}`, encoding: options.kvEventEncoding ?? 'map' } }),
      });
      const addr = await server.listen(basePort === 0 ? 0 : basePort + i, host);
      const pub = server.kvPublisher;
      started.push({
        name,
        address: `${host.includes(':') ? `[${host}]` : host}:${addr.port}`,
        url: addr.url,
        port: addr.port,
        zmqEndpoint: pub?.endpoint,
        replayEndpoint: pub?.replayEndpoint,
        topic: server.kvTopic,
        server,
      });
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { endpoints: started, close };
}
