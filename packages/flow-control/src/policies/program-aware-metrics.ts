import { Gauge, type Registry } from 'prom-client';

/** What the program-aware gauges read from their policy at scrape time. */
export interface ProgramAwareMetricsSource {
  /** Calls `fn` for every tracked program with its mean queue wait (ms, or undefined before its first dispatch) and decayed attained service. */
  forEachProgram(fn: (programId: string, meanWaitMs: number | undefined, serviceTokens: number) => void): void;
}

/**
 * Jain's fairness index `(Σx)² / (n·Σx²)` over `values`: 1 when all are equal (including all 0),
 * down to `1/n` when one value holds everything; undefined for no values.
 */
export function jainsIndex(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const max = Math.max(...values);
  if (max <= 0) return 1;
  // Scaled by the largest value so tiny or huge waits neither underflow nor overflow when squared.
  let sum = 0, sumSq = 0;
  for (const v of values) {
    const x = v / max;
    sum += x;
    sumSq += x * x;
  }
  return (sum * sum) / (values.length * sumSq);
}

/**
 * llm-d's `program_aware_*` gauges for one `program-aware-fairness` instance. Every value is read
 * from the policy when `/metrics` is scraped, so dispatch and settle only update plain numbers.
 * llm-d registers these with `MustRegister`, so two instances cannot coexist there; here a second
 * instance on the same registry records nothing (the families already belong to the first).
 * @returns false when the families already exist on `registry`
 */
export function registerProgramAwareMetrics(registry: Registry, source: ProgramAwareMetricsSource): boolean {
  if (registry.getSingleMetric('llm_d_epp_program_aware_jains_fairness_index') !== undefined) return false;
  // Each family walks the programs in its own collect: prom-client collects in registration
  // order, so one shared walk would leave the families before it a scrape behind.
  new Gauge({
    name: 'llm_d_epp_program_aware_avg_wait_time_milliseconds',
    help: 'Cumulative mean queue wait (ms) of each program (fairness id) under program-aware-fairness.',
    labelNames: ['program_id'],
    registers: [registry],
    collect() {
      this.reset();
      source.forEachProgram((id, meanWaitMs) => {
        if (meanWaitMs !== undefined) this.set({ program_id: id }, meanWaitMs);
      });
    },
  });
  new Gauge({
    name: 'llm_d_epp_program_aware_attained_service_tokens',
    help: 'Decayed attained service (prompt + 2 x completion tokens) of each program under program-aware-fairness.',
    labelNames: ['program_id'],
    registers: [registry],
    collect() {
      this.reset();
      source.forEachProgram((id, _wait, tokens) => {
        this.set({ program_id: id }, tokens);
      });
    },
  });
  new Gauge({
    name: 'llm_d_epp_program_aware_jains_fairness_index',
    help: "Jain's fairness index over the programs' mean queue waits (1 = all programs wait alike).",
    registers: [registry],
    collect() {
      const waits: number[] = [];
      source.forEachProgram((_id, meanWaitMs) => {
        if (meanWaitMs !== undefined) waits.push(meanWaitMs);
      });
      // No program yet: 0, what an unlabelled Go gauge reads before its first Set.
      this.set(jainsIndex(waits) ?? 0);
    },
  });
  return true;
}
