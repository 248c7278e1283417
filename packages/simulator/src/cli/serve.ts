import { parseArgs } from 'node:util';
import { startFleet, type FleetOptions } from '../server/fleet.js';
import { getProfile } from '../engine/profiles.js';
import { choiceFlag, intFlag, listFlag, numberFlag, stringFlag } from './args.js';
import type { CliIo } from './types.js';

/** Help text of `switchyard-sim serve`. @internal */
export const SERVE_USAGE = `Usage: switchyard-sim serve [options]

Starts N simulated vLLM pods on consecutive ports and prints their addresses.

  --pods N              number of pods (default 2)
  --base-port P         port of pod 0; pod i listens on P+i (default 8000; 0 = ephemeral)
  --host H              listen host (default 127.0.0.1)
  --profile NAME        engine profile: 8b-h100, 32b-h100, tiny (default 8b-h100)
  --time-scale X        model time runs X times faster than real time (default 1)
  --zmq-base-port Z     publish KV events: pod i PUB on Z+2i, replay ROUTER on Z+2i+1
  --kv-encoding E       KV event encoding: map or array (default map)
  --lora a,b            LoRA adapter names served (listed by /v1/models)
  --max-loras N         LoRA slots (default 1)
  --metrics-flavor F    vllm or sglang metric names (default vllm)
  --seed S              jitter seed of pod 0 (pod i uses S+i; default 0)
`;

/**
 * Parses `serve` flags into fleet options.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad flag
 * @internal
 */
export function parseServeArgs(argv: readonly string[]): FleetOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      pods: { type: 'string' },
      'base-port': { type: 'string' },
      host: { type: 'string' },
      profile: { type: 'string' },
      'time-scale': { type: 'string' },
      'zmq-base-port': { type: 'string' },
      'kv-encoding': { type: 'string' },
      lora: { type: 'string' },
      'max-loras': { type: 'string' },
      'metrics-flavor': { type: 'string' },
      seed: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const profile = stringFlag(values, 'profile') ?? '8b-h100';
  getProfile(profile);
  const zmq = stringFlag(values, 'zmq-base-port');
  const lora = listFlag(values, 'lora');
  return {
    pods: intFlag(values, 'pods', 2, 1),
    basePort: intFlag(values, 'base-port', 8000, 0),
    host: stringFlag(values, 'host') ?? '127.0.0.1',
    profile,
    timeScale: numberFlag(values, 'time-scale', 1),
    ...(zmq === undefined ? {} : { zmqBasePort: intFlag(values, 'zmq-base-port', 0, 0) }),
    kvEventEncoding: choiceFlag(values, 'kv-encoding', ['map', 'array'] as const, 'map'),
    metricsFlavor: choiceFlag(values, 'metrics-flavor', ['vllm', 'sglang'] as const, 'vllm'),
    overrides: { loraAdapters: lora, maxLoras: intFlag(values, 'max-loras', 1, 1), seed: intFlag(values, 'seed', 0, 0) },
  };
}

/**
 * `switchyard-sim serve`: starts the fleet, prints one line per pod, and closes everything when
 * `io.signal` aborts (the bin wires SIGINT/SIGTERM to it).
 * @internal
 */
export async function runServe(argv: readonly string[], io: CliIo): Promise<number> {
  const options = parseServeArgs(argv);
  const fleet = await startFleet(options);
  io.stdout.write(`switchyard-sim: ${fleet.endpoints.length} pod(s), profile ${options.profile ?? ''}, time scale ${options.timeScale ?? 1}x\n`);
  for (const e of fleet.endpoints) {
    const kv = e.zmqEndpoint === undefined ? '' : `  kv-events ${e.zmqEndpoint} replay ${e.replayEndpoint ?? ''} topic ${e.topic ?? ''}`;
    io.stdout.write(`${e.name}  ${e.url}${kv}\n`);
  }
  io.stdout.write('ready\n');
  await new Promise<void>((resolve) => {
    if (io.signal?.aborted === true) resolve();
    io.signal?.addEventListener('abort', () => { resolve(); }, { once: true });
  });
  await fleet.close();
  io.stdout.write('switchyard-sim: stopped\n');
  return 0;
}
