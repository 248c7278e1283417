import type { EngineProfile } from '../engine/types.js';

/**
 * CPU a gateway replica spends on one request before it is forwarded (parse the body, tokenise,
 * hash the prompt's blocks, run the picker), charged to simulated time on the replica's single
 * event loop: requests arriving while it is busy wait their turn.
 * @public
 * @category Fleet
 */
export interface GatewayCpuModel {
  /** Per request, µs (default 88: the default config's CPU per request at the reference speed, docs/benchmarks/gateway.md). */
  readonly perRequestUs: number;
  /** Per prompt token, ns (default 10: body parse + block hashing, docs/benchmarks/prefix-index.md). */
  readonly perPromptTokenNs: number;
}

/**
 * The measured defaults of {@link GatewayCpuModel}. @public
 * @category Fleet
 */
export const DEFAULT_GATEWAY_CPU: GatewayCpuModel = { perRequestUs: 88, perPromptTokenNs: 10 };

/**
 * Gateway CPU for a request of `promptTokens`, ms.
 * @public
 * @category Fleet
 */
export function gatewayCpuMs(model: GatewayCpuModel, promptTokens: number): number {
  return (model.perRequestUs + (model.perPromptTokenNs * promptTokens) / 1000) / 1000;
}

/**
 * Request-path time from the gateway's forward to the engine's queue, ms (see
 * `EngineProfile.requestPath`; 1 ms flat when the profile has none).
 * @public
 * @category Fleet
 */
export function requestPathMs(profile: EngineProfile, promptTokens: number): number {
  const p = profile.requestPath ?? { fixedMs: 1, perPromptTokenUs: 0 };
  return p.fixedMs + (p.perPromptTokenUs * promptTokens) / 1000;
}
