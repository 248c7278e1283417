import { createRng, mix32 } from '../util/prng.js';
import { poissonArrivals } from './arrivals.js';
import type { Workload, WorkloadItem } from './types.js';

/**
 * Parameters of {@link loraMixWorkload}.
 * @public
 * @category Workloads
 */
export interface LoraMixOptions {
  /** Adapter names (default `lora-0` … `lora-7`). */
  readonly adapters?: readonly string[];
  /** Zipf exponent of adapter popularity (default 1). */
  readonly zipf?: number;
  /** Share of requests for the base model (default 0.2). */
  readonly baseShare?: number;
  /** Request rate, requests/s (default 10). */
  readonly rate?: number;
  /** Length of the run, ms (default 60 000). */
  readonly durationMs?: number;
  /** System prompt per adapter, tokens (default 1024). */
  readonly systemPromptLen?: number;
  /** Unique tokens per request (default 256). */
  readonly questionLen?: number;
  /** Output tokens (default 128). */
  readonly outputLen?: number;
  /** Seed (default 1). */
  readonly seed?: number;
}

/**
 * A LoRA adapter mix: Zipf-popular adapters (plus a base-model share), each with its own system
 * prompt, arriving as a Poisson process. Exercises LoRA-affinity routing and slot pressure.
 * @public
 * @category Workloads
 */
export function loraMixWorkload(options: LoraMixOptions = {}): Workload {
  const adapters = options.adapters ?? Array.from({ length: 8 }, (_, i) => `lora-${i}`);
  const p = {
    adapters,
    zipf: options.zipf ?? 1,
    baseShare: options.baseShare ?? 0.2,
    rate: options.rate ?? 10,
    durationMs: options.durationMs ?? 60_000,
    systemPromptLen: options.systemPromptLen ?? 1024,
    questionLen: options.questionLen ?? 256,
    outputLen: options.outputLen ?? 128,
    seed: options.seed ?? 1,
  };
  const rng = createRng(p.seed);
  const weights = adapters.map((_, i) => 1 / Math.pow(i + 1, p.zipf));
  const total = weights.reduce((a, w) => a + w, 0);
  const choose = rng.fork('adapter');
  const pickAdapter = (): number => {
    if (choose.next() < p.baseShare) return -1;
    let u = choose.next() * total;
    for (let i = 0; i < weights.length; i++) {
      u -= weights[i] ?? 0;
      if (u < 0) return i;
    }
    return weights.length - 1;
  };
  const items: WorkloadItem[] = poissonArrivals(rng.fork('arrivals'), p.rate, p.durationMs).map((arrivalMs, i) => {
    const a = adapters.length === 0 ? -1 : pickAdapter();
    return {
      id: `lora-${i}`,
      arrivalMs,
      prompt: [{ seed: mix32(p.seed * 4099 + a + 2), length: p.systemPromptLen }, { seed: mix32(p.seed * 257 + i + 0xabc), length: p.questionLen }],
      promptLength: p.systemPromptLen + p.questionLen,
      maxOutputTokens: p.outputLen,
      outputSeed: mix32(p.seed * 19 + i),
      tenant: a < 0 ? 'base' : (adapters[a] ?? 'base'),
      priority: 0,
      adapter: a < 0 ? undefined : adapters[a],
      session: undefined,
      after: undefined,
      delayMs: 0,
    };
  });
  return {
    name: 'lora-mix',
    description: `${adapters.length} adapters (Zipf ${p.zipf}) + ${Math.round(p.baseShare * 100)}% base, ${p.rate} req/s`,
    params: p,
    items,
  };
}
