/**
 * True when a predicted latency meets its SLO; a dimension the request sets no SLO for is always met.
 * Shared by `latency-scorer` and `slo-headroom-tier-filter`, so both tier endpoints alike.
 * @internal
 */
export function withinSlo(sloMs: number | undefined, predictedMs: number): boolean {
  return sloMs === undefined || predictedMs <= sloMs;
}
