import { InMemoryStateHub, ManualClock, ReplicaSync, isSwitchyardError, type Decision } from '@switchyard/core';
import { EngineModel } from '../engine/engine.js';
import { resolveEngineConfig } from '../engine/config.js';
import { getProfile } from '../engine/profiles.js';
import type { EngineProfile, EngineRequestResult } from '../engine/types.js';
import type { LoadSample, PolicyRun, RequestRecord } from '../report/types.js';
import { createRng, type Rng } from '../util/prng.js';
import { generatedLength, sharedPromptTokens } from '../workloads/prompt.js';
import type { Workload } from '../workloads/types.js';
import { driveClock } from './driver.js';
import { DEFAULT_GATEWAY_CPU, gatewayCpuMs, requestPathMs } from './gateway-cost.js';
import { GatewayReplica, type FleetPod } from './gateway-replica.js';
import { itemPickOptions, itemRequest } from './request.js';
import { DEFAULT_SIGNAL_TIMING, type SignalTiming } from './signal-timing.js';
import type { MembershipChange, PolicyFactory, VirtualFleetOptions } from './types.js';

/**
 * Runs `workload` through the policy built by `policy` against simulated engines in virtual
 * time. The policy is the real scheduling code (normally an `EndpointPicker`, with flow control
 * and prefix indexes as configured). With `gateways: N` the factory is called once per replica
 * and each arrival goes to a uniformly random replica, as behind a Kubernetes Service; every
 * replica scrapes every pod on its own staggered, jittered timer and receives every engine's KV
 * events after its own drawn delay. Closed-loop items (`after`) are sent `delayMs` after their
 * predecessor completes. The result is a pure function of the workload, the policy and the
 * options (same seed, same bytes).
 * @example
 * ```ts
 * const run = await runVirtualFleet(sharedPrefixWorkload({ rate: 20 }), builtinPolicy('precise'), { pods: 8, gateways: 4 });
 * console.log(run.engine.prefixHits / run.engine.prefixQueries);
 * ```
 * @public
 * @category Fleet
 */
export async function runVirtualFleet(workload: Workload, policy: PolicyFactory, options: VirtualFleetOptions = {}): Promise<PolicyRun> {
  return new VirtualFleetRun(workload, options).run(policy);
}

const POD_LABELS = { 'llm-d.ai/role': 'decode' } as const;

class VirtualFleetRun {
  readonly #clock = new ManualClock(0);
  readonly #pods = new Map<string, FleetPod>();
  readonly #engines: EngineModel[] = [];
  readonly #replicas: GatewayReplica[] = [];
  readonly #records: (RequestRecord | undefined)[];
  readonly #samples: LoadSample[] = [];
  readonly #dependents = new Map<number, number[]>();
  readonly #workload: Workload;
  readonly #o: VirtualFleetOptions;
  readonly #seed: number;
  readonly #timing: SignalTiming;
  readonly #profile: EngineProfile;
  readonly #routeRng: Rng;
  #modelName = 'model';
  #pending = 0;
  #done = 0;
  #lastEvent = 0;
  #progressStep: number;

  constructor(workload: Workload, options: VirtualFleetOptions) {
    this.#workload = workload;
    this.#o = options;
    this.#seed = options.seed ?? 1;
    this.#records = new Array<RequestRecord | undefined>(workload.items.length);
    this.#progressStep = Math.max(1, Math.floor(workload.items.length / 50));
    this.#profile = typeof options.profile === 'object' ? options.profile : getProfile(options.profile ?? '8b-h100');
    this.#routeRng = createRng(this.#seed).fork('service');
    this.#timing = {
      ...DEFAULT_SIGNAL_TIMING,
      ...(options.scrapeIntervalMs === undefined ? {} : { scrapeIntervalMs: options.scrapeIntervalMs }),
      ...(options.kvEventDelayMs === undefined ? {} : { kvEventDelayMs: options.kvEventDelayMs }),
      ...(options.signals ?? {}),
    };
  }

  /** One ReplicaSync per replica over one in-memory hub (Redis's stand-in), pools attached; none unless asked. */
  #sharedState(): ReplicaSync[] {
    const ms = this.#o.sharedStateSyncMs;
    if (ms === undefined) return [];
    const hub = new InMemoryStateHub();
    return this.#replicas.map((r) => {
      const sync = new ReplicaSync({ transport: hub.transport(`gw-${r.index}`), replicaId: `gw-${r.index}`, clock: this.#clock, syncIntervalMs: ms });
      sync.attachPool(r.pool);
      return sync;
    });
  }

  async run(factory: PolicyFactory): Promise<PolicyRun> {
    const wallStart = performance.now();
    const pods = this.#o.pods ?? 8;
    const gateways = this.#o.gateways ?? 1;
    this.#modelName = resolveEngineConfig({ profile: this.#profile, overrides: this.#o.overrides ?? {} }).modelName;
    const root = createRng(this.#seed);
    for (let g = 0; g < gateways; g++) {
      this.#replicas.push(new GatewayReplica(g, this.#clock, root.fork(`signals-${g}`), this.#timing, this.#o.metricsVia ?? 'snapshot'));
    }
    for (let i = 0; i < pods; i++) this.#join(i);
    const syncs = this.#sharedState();
    for (const replica of this.#replicas) {
      // Replica 0 keeps the single-gateway stream, so one-replica runs are unchanged by the seam.
      const rng = replica.index === 0 ? root.fork('policy') : root.fork(`policy-${replica.index}`);
      replica.policy = await factory({
        pool: replica.pool,
        clock: this.#clock,
        random: () => rng.next(),
        seed: this.#seed,
        fleet: { engine: (id) => { const p = this.#pods.get(id); return p?.state === 'down' ? undefined : p?.engine; } },
        modelName: this.#modelName,
        replica: replica.index,
        replicas: gateways,
        sharedState: syncs[replica.index],
      });
    }
    for (const s of syncs) s.start();
    const items = this.#workload.items;
    const index = new Map(items.map((it, i) => [it.id, i]));
    let lastArrival = 0;
    items.forEach((item, i) => {
      const dep = item.after === undefined ? undefined : index.get(item.after);
      if (dep === undefined) {
        this.#clock.setTimeout(() => { this.#arrive(i); }, item.arrivalMs);
        lastArrival = Math.max(lastArrival, item.arrivalMs);
      } else {
        this.#dependents.set(dep, [...(this.#dependents.get(dep) ?? []), i]);
      }
    });
    for (const m of this.#o.membership ?? []) this.#clock.setTimeout(() => { this.#membership(m); }, m.atMs);
    this.#sample();
    // Closed-loop items arrive after their predecessors, so the open-loop estimates of the last
    // turns (not only the sessions' starts) bound how long the run may need.
    const latest = items.reduce((a, it) => Math.max(a, it.arrivalMs), lastArrival);
    const limit = this.#o.maxDurationMs ?? latest + 30 * 60_000;
    await driveClock(this.#clock, () => this.#done === items.length && this.#pending === 0, () => this.#pending > 0, limit);
    for (let i = 0; i < items.length; i++) {
      if (this.#records[i] === undefined && items[i] !== undefined) {
        this.#records[i] = { ...this.#baseRecord(i, this.#clock.now()), finishMs: this.#clock.now(), status: 'error', reason: 'timeout' };
      }
    }
    for (const r of this.#replicas) await r.policy?.close?.();
    for (const s of syncs) await s.close();
    for (const e of this.#engines) e.close();
    const totals = { prefixQueries: 0, prefixHits: 0, preemptions: 0 };
    for (const e of this.#engines) {
      totals.prefixQueries += e.stats.prefixCacheQueries;
      totals.prefixHits += e.stats.prefixCacheHits;
      totals.preemptions += e.stats.preemptions;
    }
    const first = this.#replicas[0]?.policy;
    return {
      policy: first?.name ?? 'policy',
      description: first?.description ?? '',
      records: this.#records.filter((r): r is RequestRecord => r !== undefined),
      samples: this.#samples,
      durationMs: this.#lastEvent,
      wallMs: performance.now() - wallStart,
      engine: totals,
    };
  }

  #newEngine(i: number): EngineModel {
    const o = this.#o;
    const engine = new EngineModel({
      clock: this.#clock,
      profile: this.#profile,
      overrides: { ...(o.overrides ?? {}), seed: (o.overrides?.seed ?? this.#seed) + i + 7919 * this.#engines.length },
    });
    this.#engines.push(engine);
    return engine;
  }

  #subscribe(pod: FleetPod): void {
    const engine = pod.engine;
    engine.on('kvEvents', (batch) => {
      // A restarted pod's old engine is gone; its subscription with it.
      if (pod.engine !== engine) return;
      for (const r of this.#replicas) r.deliverKv(pod, batch);
    });
  }

  #join(i: number): void {
    const id = `pod-${i}`;
    const existing = this.#pods.get(id);
    if (existing !== undefined && existing.state !== 'down') return;
    const pod: FleetPod = { id, address: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}:8000`, engine: this.#newEngine(i), state: 'up' };
    this.#pods.set(id, pod);
    this.#subscribe(pod);
    for (const r of this.#replicas) r.addPod(pod, POD_LABELS);
  }

  #membership(m: MembershipChange): void {
    const id = `pod-${m.pod}`;
    if (m.action === 'join') {
      this.#join(m.pod);
      return;
    }
    const pod = this.#pods.get(id);
    if (pod === undefined || pod.state === 'down') return;
    if (m.action === 'restart') {
      // Same address, empty cache, and nobody tells the gateways: their pools, indexes and
      // in-flight counts still describe the old process until scrapes and events catch up.
      const old = pod.engine;
      pod.engine = this.#newEngine(m.pod);
      this.#subscribe(pod);
      for (const r of old.liveRequests()) old.abort(r.id);
      old.close();
      return;
    }
    for (const r of this.#replicas) r.pool.remove(id);
    if (m.action === 'leave') {
      pod.state = 'draining';
      return;
    }
    pod.state = 'down';
    for (const r of pod.engine.liveRequests()) pod.engine.abort(r.id);
    pod.engine.close();
  }

  #sample(): void {
    const now = this.#clock.now();
    for (const pod of this.#pods.values()) {
      if (pod.state === 'down') continue;
      const s = pod.engine.snapshot();
      this.#samples.push({ t: now, endpoint: pod.id, running: s.running, waiting: s.waiting, kvUsage: Math.round(s.kvCacheUsage * 1000) / 1000 });
    }
    if (this.#done < this.#workload.items.length) this.#clock.setTimeout(() => { this.#sample(); }, this.#o.sampleIntervalMs ?? 1000);
  }

  #baseRecord(i: number, arrivalMs: number): Omit<RequestRecord, 'finishMs' | 'status'> {
    const item = this.#workload.items[i];
    return {
      id: item?.id ?? String(i),
      tenant: item?.tenant ?? 'default',
      priority: item?.priority ?? 0,
      endpoint: undefined,
      arrivalMs,
      dispatchMs: undefined,
      firstTokenMs: undefined,
      promptTokens: item?.promptLength ?? 0,
      cachedTokens: 0,
      outputTokens: 0,
    };
  }

  #arrive(i: number): void {
    const item = this.#workload.items[i];
    if (item === undefined) return;
    const replica = this.#replicas[this.#routeRng.int(this.#replicas.length)] as GatewayReplica;
    const policy = replica.policy;
    if (policy === undefined) return;
    const arrival = this.#clock.now();
    this.#pending++;
    const cpu = this.#o.gatewayCpu === false ? 0 : gatewayCpuMs(this.#o.gatewayCpu ?? DEFAULT_GATEWAY_CPU, item.promptLength);
    const pick = (): void => {
      const tokens = sharedPromptTokens(item);
      policy.scheduler.pick(itemRequest(item, tokens, this.#modelName), itemPickOptions(item)).then(
        (decision) => {
          this.#pending--;
          this.#forward(i, replica.index, decision, tokens, arrival);
        },
        (error: unknown) => {
          this.#pending--;
          const reason = isSwitchyardError(error) ? error.code : 'error';
          this.#finish(i, { ...this.#baseRecord(i, arrival), gateway: replica.index, finishMs: this.#clock.now(), status: 'rejected', reason });
        },
      );
    };
    const wait = cpu === 0 ? 0 : replica.chargeCpu(cpu);
    if (wait === 0) pick();
    else this.#clock.setTimeout(pick, wait);
  }

  /** The request travels to the pod (HTTP, the engine's API server) before the engine queues it. */
  #forward(i: number, gateway: number, decision: Decision, tokens: Uint32Array, arrival: number): void {
    const pod = this.#pods.get(decision.primary.id);
    const path = requestPathMs(this.#profile, tokens.length);
    const engine = pod?.engine;
    this.#pending++;
    this.#clock.setTimeout(() => {
      this.#pending--;
      // A restart while the request was on the wire: the new process never saw it.
      this.#dispatch(i, gateway, decision, tokens, arrival, pod?.engine === engine ? pod : undefined);
    }, path);
  }

  #dispatch(i: number, gateway: number, decision: Decision, tokens: Uint32Array, arrival: number, pod: FleetPod | undefined): void {
    const item = this.#workload.items[i];
    const now = this.#clock.now();
    const base = { ...this.#baseRecord(i, arrival), gateway, endpoint: decision.primary.id, dispatchMs: now };
    if (item === undefined || pod === undefined || pod.state !== 'up') {
      decision.complete({ kind: 'error', status: 502 });
      this.#finish(i, { ...base, finishMs: now, status: 'error', reason: 'endpoint-gone' });
      return;
    }
    let first: number | undefined;
    let evicted = false;
    const engine = pod.engine;
    const onFinish = (r: EngineRequestResult): void => {
      const t = this.#clock.now();
      const done = { ...base, firstTokenMs: first, finishMs: t, cachedTokens: r.cachedTokens, outputTokens: r.outputTokens };
      if (r.finishReason === 'length') {
        const usage = { promptTokens: r.promptTokens, completionTokens: r.outputTokens, cachedTokens: r.cachedTokens };
        decision.onUsage(usage);
        decision.complete({ kind: 'success', usage });
        this.#finish(i, { ...done, status: 'ok' });
      } else {
        decision.complete({ kind: 'error', status: 502 });
        const reason = evicted ? 'evicted' : pod.engine === engine ? 'endpoint-failed' : 'pod-restarted';
        this.#finish(i, { ...done, status: 'error', reason });
      }
    };
    try {
      engine.submit(
        // The engine generates what the request really generates; the gateway saw max_tokens.
        { id: item.id, promptTokens: tokens, maxOutputTokens: generatedLength(item), adapter: item.adapter, outputSeed: item.outputSeed },
        {
          onToken: (_t, index) => {
            if (index !== 0) return;
            first = this.#clock.now();
            decision.onResponseStart({ endpoint: decision.primary, status: 200, at: first });
          },
          onFinish,
        },
      );
    } catch (error) {
      decision.complete({ kind: 'error', error, status: 400 });
      this.#finish(i, { ...base, finishMs: now, status: 'error', reason: isSwitchyardError(error) ? error.code : 'error' });
      return;
    }
    decision.revoked?.addEventListener('abort', () => {
      evicted = true;
      engine.abort(item.id);
    }, { once: true });
  }

  #finish(i: number, record: RequestRecord): void {
    if (this.#records[i] !== undefined) return;
    this.#records[i] = record;
    this.#done++;
    this.#lastEvent = Math.max(this.#lastEvent, record.finishMs);
    for (const d of this.#dependents.get(i) ?? []) {
      this.#clock.setTimeout(() => { this.#arrive(d); }, this.#workload.items[d]?.delayMs ?? 0);
    }
    if (this.#done % this.#progressStep === 0 || this.#done === this.#workload.items.length) {
      this.#o.onProgress?.(this.#done, this.#workload.items.length, this.#clock.now());
    }
  }
}
