/**
 * `npm run demo`: a simulated vLLM fleet on loopback and a multi-turn chat workload driven with the
 * official `openai` client through the Switchyard gateway three times: with the switchyard profile,
 * with llm-d's default config, and with round-robin routing; prints a side-by-side
 * table (engine-measured prefix hit rate, TTFT, throughput, errors) and writes an HTML report.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildReport, multiTurnWorkload, percentiles, writeReport, type ComparisonReport, type PolicyRun, type Workload } from '@switchyard/simulator';
import { driveWorkload } from './drive.js';
import { engineCounters, sampleLoad } from './engine-metrics.js';
import { isFleetWorker, serveFleetWorker, startFleetHere, startFleetInWorker, type HostedFleet } from './fleet-host.js';
import { defaultPolicy, roundRobinPolicy, switchyardPolicy, type DemoPolicy } from './policies.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Simulated pods. @default 4 */
  readonly pods?: number;
  /** Model time runs this many times faster than real time (1 = engines as fast as the modelled GPUs). @default 1 */
  readonly timeScale?: number;
  /** Conversations of the multi-turn workload. @default 48 */
  readonly conversations?: number;
  /** Turns per conversation. @default [4, 7] */
  readonly turns?: readonly [number, number];
  /** Engine profile of the simulated pods. @default '32b-h100' */
  readonly profile?: string;
  /** Prefix shared by every conversation, tokens. @default 200 */
  readonly commonPrefixLen?: number;
  /** Mean of each conversation's own prefix (system prompt, documents), tokens. @default 8000 */
  readonly conversationPrefixMean?: number;
  /** Output tokens per turn. @default [40, 80] */
  readonly outputTokens?: readonly [number, number];
  /** Conversation start rate, per second of model time. @default 8 */
  readonly conversationRate?: number;
  /** Workload seed. @default 7 */
  readonly seed?: number;
  /** Where to write report.html (report.json goes beside it); undefined = no report. */
  readonly reportPath?: string | undefined;
  /** Progress and result lines (stderr in the CLI). */
  readonly log?: (text: string) => void;
  /**
   * Redraw one progress line in place (`\r`, four times a second), for a terminal. Otherwise a
   * progress line is written every 5 s and ends with a newline, so a log file stays readable.
   * @default false
   */
  readonly liveProgress?: boolean;
  /** Run the fleet in a worker thread of this script (the bundled demo); default: in this thread. */
  readonly fleetWorkerScript?: URL | undefined;
}

/** One policy's outcome, as shown in the table. */
export interface DemoRow {
  readonly policy: string;
  readonly prefixHitRate: number;
  readonly ttftP50: number;
  readonly ttftP90: number;
  readonly outputTokensPerSec: number;
  readonly completed: number;
  readonly errors: number;
  readonly seconds: number;
}

/** Result of {@link runDemo}. */
export interface DemoResult {
  readonly rows: readonly DemoRow[];
  readonly table: string;
  readonly report: ComparisonReport;
  readonly reportFiles: { readonly html: string; readonly json: string } | undefined;
}

const MODELS: Readonly<Record<string, string>> = { '8b-h100': 'meta-llama/Llama-3.1-8B-Instruct', '32b-h100': 'Qwen/Qwen3-32B', tiny: 'sim-tiny' };

interface RunSettings {
  readonly pods: number;
  readonly timeScale: number;
  readonly seed: number;
  readonly profile: string;
  readonly worker: URL | undefined;
  readonly liveProgress: boolean;
}

async function runPolicy(policy: DemoPolicy, workload: Workload, o: RunSettings, log: (t: string) => void): Promise<PolicyRun> {
  // A fresh fleet per policy: both start with cold caches and the same engine seeds.
  const fleetOptions = { pods: o.pods, timeScale: o.timeScale, profile: o.profile };
  const fleet: HostedFleet = o.worker === undefined ? await startFleetHere(fleetOptions) : await startFleetInWorker(o.worker, fleetOptions);
  const addresses = fleet.addresses;
  const gateway = await policy.start(addresses);
  try {
    const { url } = await gateway.listen(0, '127.0.0.1');
    const load = sampleLoad(addresses, 250);
    const t0 = performance.now();
    const every = o.liveProgress ? 250 : 5000;
    let last = t0;
    const records = await driveWorkload({
      url,
      model: MODELS[o.profile] ?? 'meta-llama/Llama-3.1-8B-Instruct',
      workload,
      timeScale: o.timeScale,
      onProgress: (done, total, errors) => {
        const now = performance.now();
        if (now - last < every && done < total) return;
        last = now;
        const line = `[${policy.name}] ${done}/${total} requests, ${errors} errors, ${((now - t0) / 1000).toFixed(1)} s`;
        log(o.liveProgress ? `\r${line}   ` : `${line}\n`);
      },
    });
    if (o.liveProgress) log('\n');
    const samples = load.stop();
    return { policy: policy.name, description: policy.description, records, samples, durationMs: performance.now() - t0, engine: await engineCounters(addresses) };
  } finally {
    await gateway.close();
    await fleet.close();
  }
}

function rowOf(run: PolicyRun): DemoRow {
  const ok = run.records.filter((r) => r.status === 'ok');
  const ttft = percentiles(ok.flatMap((r) => (r.firstTokenMs === undefined ? [] : [r.firstTokenMs - r.arrivalMs])));
  return {
    policy: run.policy,
    prefixHitRate: run.engine.prefixQueries === 0 ? 0 : run.engine.prefixHits / run.engine.prefixQueries,
    ttftP50: ttft.p50,
    ttftP90: ttft.p90,
    outputTokensPerSec: ok.reduce((a, r) => a + r.outputTokens, 0) / (run.durationMs / 1000),
    completed: ok.length,
    errors: run.records.length - ok.length,
    seconds: run.durationMs / 1000,
  };
}

/** Formats the side-by-side table. */
export function formatTable(rows: readonly DemoRow[]): string {
  const cols = rows.map((r) => r.policy);
  const line = (label: string, cells: string[]): string => [label.padEnd(34), ...cells.map((c, i) => c.padStart(Math.max(14, (cols[i] ?? '').length + 2)))].join('');
  return [
    line('', cols),
    line('prefix cache hit rate (engines)', rows.map((r) => `${(r.prefixHitRate * 100).toFixed(1)}%`)),
    line('TTFT p50 (ms)', rows.map((r) => r.ttftP50.toFixed(0))),
    line('TTFT p90 (ms)', rows.map((r) => r.ttftP90.toFixed(0))),
    line('throughput (output tokens/s)', rows.map((r) => r.outputTokensPerSec.toFixed(0))),
    line('completed / errors', rows.map((r) => `${r.completed} / ${r.errors}`)),
    line('wall time (s)', rows.map((r) => r.seconds.toFixed(1))),
  ].join('\n');
}

/** Runs the demo and returns the table, the report and where it was written. */
export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const log = options.log ?? (() => undefined);
  const o: RunSettings = { pods: options.pods ?? 4, timeScale: options.timeScale ?? 1, seed: options.seed ?? 7, profile: options.profile ?? '32b-h100', worker: options.fleetWorkerScript, liveProgress: options.liveProgress ?? false };
  const workload = multiTurnWorkload({
    conversations: options.conversations ?? 48,
    turns: options.turns ?? [4, 7],
    commonPrefixLen: options.commonPrefixLen ?? 200,
    conversationPrefixMean: options.conversationPrefixMean ?? 8000,
    conversationPrefixMax: 4 * (options.conversationPrefixMean ?? 8000),
    outputTokens: options.outputTokens ?? [40, 80],
    conversationRate: options.conversationRate ?? 8,
    thinkMs: 500,
    seed: o.seed,
  });
  log(`fleet: ${o.pods} simulated vLLM pods (${o.profile}, ${o.timeScale}× real time); workload: ${workload.description} (${workload.items.length} requests)\n`);
  const runs: PolicyRun[] = [];
  for (const policy of [switchyardPolicy, defaultPolicy, roundRobinPolicy]) runs.push(await runPolicy(policy, workload, o, log));
  const rows = runs.map(rowOf);
  const report = buildReport({
    title: `Switchyard demo: ${workload.name} through the live gateway on ${o.pods} simulated pods`,
    workload: { name: workload.name, description: workload.description, params: workload.params, requests: workload.items.length },
    fleet: { pods: o.pods, profile: o.profile, scrapeIntervalMs: 50, kvEventDelayMs: 0 },
    seed: o.seed,
    runs,
  });
  const reportFiles = options.reportPath === undefined ? undefined : await writeReport(report, options.reportPath);
  return { rows, table: formatTable(rows), report, reportFiles };
}

async function main(): Promise<void> {
  const started = performance.now();
  const log = (t: string): void => {
    process.stderr.write(t);
  };
  // Optional overrides for experiments: DEMO_OPTIONS='{"timeScale":2,"conversations":48}'.
  const overrides = JSON.parse(process.env.DEMO_OPTIONS ?? '{}') as DemoOptions;
  const result = await runDemo({ reportPath: resolve('out/demo/report.html'), log, liveProgress: process.stderr.isTTY, fleetWorkerScript: new URL(import.meta.url), ...overrides });
  process.stdout.write(`\n${result.table}\n\n`);
  if (result.reportFiles !== undefined) process.stdout.write(`HTML report: ${result.reportFiles.html}\n`);
  process.stdout.write(`done in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
}

if (isFleetWorker()) {
  await serveFleetWorker();
} else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`demo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
