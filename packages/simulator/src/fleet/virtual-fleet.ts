import { EndpointPool, ManualClock, isSwitchyardError, type Decision, type EndpointMetrics } from '@switchyard/core';
import { EngineModel } from '../engine/engine.js';
import type { EngineRequestResult } from '../engine/types.js';
import type { LoadSample, PolicyRun, RequestRecord } from '../report/types.js';
import { createRng } from '../util/prng.js';
import { materializePrompt } from '../workloads/prompt.js';
import type { Workload } from '../workloads/types.js';
import { driveClock } from './driver.js';
import { engineMetrics, scrapeEngineMetrics } from './metrics-bridge.js';
import { itemPickOptions, itemRequest } from './request.js';
import type { MembershipChange, PolicyFactory, SimPolicy, VirtualFleetOptions } from './types.js';

interface Pod {
  readonly id: string;
  readonly engine: EngineModel;
  state: 'up' | 'draining' | 'down';
  last: EndpointMetrics | undefined;
}

/**
 * Runs `workload` through the policy built by `policy` against simulated engines in virtual
 * time. The policy is the real scheduling code (normally an `EndpointPicker`, with flow control
 * and prefix indexes as configured); metrics reach its pool at the scrape interval and KV events
 * after their delay, so staleness is modelled. Closed-loop items (`after`) are sent `delayMs`
 * after their predecessor completes. The result is a pure function of the workload, the policy
 * and the options (same seed, same bytes).
 * @example
 * ```ts
 * const run = await runVirtualFleet(sharedPrefixWorkload({ rate: 20 }), builtinPolicy('precise'), { pods: 8 });
 * console.log(run.engine.prefixHits / run.engine.prefixQueries);
 * ```
 * @public
 */
export async function runVirtualFleet(workload: Workload, policy: PolicyFactory, options: VirtualFleetOptions = {}): Promise<PolicyRun> {
  return new VirtualFleetRun(workload, options).run(policy);
}

class VirtualFleetRun {
  readonly #clock = new ManualClock(0);
  readonly #pool = new EndpointPool();
  readonly #pods = new Map<string, Pod>();
  readonly #engines: EngineModel[] = [];
  readonly #records: (RequestRecord | undefined)[];
  readonly #samples: LoadSample[] = [];
  readonly #dependents = new Map<number, number[]>();
  readonly #workload: Workload;
  readonly #o: VirtualFleetOptions;
  readonly #seed: number;
  #policy: SimPolicy | undefined;
  #pending = 0;
  #done = 0;
  #lastEvent = 0;
  #progressStep: number;
  #wall = 0;

  constructor(workload: Workload, options: VirtualFleetOptions) {
    this.#workload = workload;
    this.#o = options;
    this.#seed = options.seed ?? 1;
    this.#records = new Array<RequestRecord | undefined>(workload.items.length);
    this.#progressStep = Math.max(1, Math.floor(workload.items.length / 50));
  }

  async run(factory: PolicyFactory): Promise<PolicyRun> {
    const wallStart = performance.now();
    const pods = this.#o.pods ?? 8;
    for (let i = 0; i < pods; i++) this.#join(i);
    const modelName = this.#engines[0]?.config.modelName ?? 'model';
    const rng = createRng(this.#seed).fork('policy');
    const policy = await factory({
      pool: this.#pool,
      clock: this.#clock,
      random: () => rng.next(),
      seed: this.#seed,
      fleet: { engine: (id) => { const p = this.#pods.get(id); return p?.state === 'down' ? undefined : p?.engine; } },
      modelName,
    });
    this.#policy = policy;
    if (policy.onKvEvents !== undefined) for (const pod of this.#pods.values()) this.#forwardKv(pod);
    const items = this.#workload.items;
    const index = new Map(items.map((it, i) => [it.id, i]));
    let lastArrival = 0;
    items.forEach((item, i) => {
      const dep = item.after === undefined ? undefined : index.get(item.after);
      if (dep === undefined) {
        this.#clock.setTimeout(() => { this.#arrive(i, modelName); }, item.arrivalMs);
        lastArrival = Math.max(lastArrival, item.arrivalMs);
      } else {
        this.#dependents.set(dep, [...(this.#dependents.get(dep) ?? []), i]);
      }
    });
    for (const m of this.#o.membership ?? []) this.#clock.setTimeout(() => { this.#membership(m); }, m.atMs);
    this.#sample();
    const limit = this.#o.maxDurationMs ?? lastArrival + 30 * 60_000;
    await driveClock(this.#clock, () => this.#done === items.length && this.#pending === 0, () => this.#pending > 0, limit);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (this.#records[i] === undefined && item !== undefined) {
        this.#records[i] = { ...this.#baseRecord(i, this.#clock.now()), finishMs: this.#clock.now(), status: 'error', reason: 'timeout' };
      }
    }
    await policy.close?.();
    for (const e of this.#engines) e.close();
    this.#wall = performance.now() - wallStart;
    const totals = { prefixQueries: 0, prefixHits: 0, preemptions: 0 };
    for (const e of this.#engines) {
      totals.prefixQueries += e.stats.prefixCacheQueries;
      totals.prefixHits += e.stats.prefixCacheHits;
      totals.preemptions += e.stats.preemptions;
    }
    return {
      policy: policy.name,
      description: policy.description,
      records: this.#records.filter((r): r is RequestRecord => r !== undefined),
      samples: this.#samples,
      durationMs: this.#lastEvent,
      wallMs: this.#wall,
      engine: totals,
    };
  }

  #join(i: number): void {
    const id = `pod-${i}`;
    const existing = this.#pods.get(id);
    if (existing !== undefined && existing.state !== 'down') return;
    const o = this.#o;
    const engine = new EngineModel({
      clock: this.#clock,
      profile: o.profile ?? '8b-h100',
      overrides: { ...(o.overrides ?? {}), seed: (o.overrides?.seed ?? this.#seed) + i },
    });
    this.#engines.push(engine);
    const pod: Pod = { id, engine, state: 'up', last: undefined };
    this.#pods.set(id, pod);
    this.#pool.add({ id, address: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}:8000`, labels: { 'llm-d.ai/role': 'decode' } });
    if (this.#policy?.onKvEvents !== undefined) this.#forwardKv(pod);
    const interval = o.scrapeIntervalMs ?? 50;
    const scrape = (): void => {
      if (pod.state !== 'up') return;
      const now = this.#clock.now();
      pod.last = o.metricsVia === 'prometheus' ? scrapeEngineMetrics(engine, now, pod.last) : engineMetrics(engine, now);
      this.#pool.setMetrics(id, pod.last);
      this.#clock.setTimeout(scrape, interval);
    };
    scrape();
  }

  #forwardKv(pod: Pod): void {
    const sink = this.#policy?.onKvEvents;
    if (sink === undefined) return;
    const delay = this.#o.kvEventDelayMs ?? 10;
    pod.engine.on('kvEvents', (batch) => {
      this.#clock.setTimeout(() => {
        if (pod.state !== 'down') sink(pod.id, batch);
      }, delay);
    });
  }

  #membership(m: MembershipChange): void {
    const id = `pod-${m.pod}`;
    if (m.action === 'join') {
      this.#join(m.pod);
      return;
    }
    const pod = this.#pods.get(id);
    if (pod === undefined || pod.state === 'down') return;
    this.#pool.remove(id);
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

  #arrive(i: number, modelName: string): void {
    const item = this.#workload.items[i];
    const policy = this.#policy;
    if (item === undefined || policy === undefined) return;
    const arrival = this.#clock.now();
    const tokens = materializePrompt(item);
    this.#pending++;
    policy.scheduler.pick(itemRequest(item, tokens, modelName), itemPickOptions(item)).then(
      (decision) => {
        this.#pending--;
        this.#dispatch(i, decision, tokens, arrival);
      },
      (error: unknown) => {
        this.#pending--;
        const reason = isSwitchyardError(error) ? error.code : 'error';
        this.#finish(i, { ...this.#baseRecord(i, arrival), finishMs: this.#clock.now(), status: 'rejected', reason });
      },
    );
  }

  #dispatch(i: number, decision: Decision, tokens: Uint32Array, arrival: number): void {
    const item = this.#workload.items[i];
    const pod = this.#pods.get(decision.primary.id);
    const now = this.#clock.now();
    const base = { ...this.#baseRecord(i, arrival), endpoint: decision.primary.id, dispatchMs: now };
    if (item === undefined || pod === undefined || pod.state !== 'up') {
      decision.complete({ kind: 'error', status: 502 });
      this.#finish(i, { ...base, finishMs: now, status: 'error', reason: 'endpoint-gone' });
      return;
    }
    let first: number | undefined;
    let evicted = false;
    const onFinish = (r: EngineRequestResult): void => {
      const t = this.#clock.now();
      if (r.finishReason === 'length') {
        const usage = { promptTokens: r.promptTokens, completionTokens: r.outputTokens, cachedTokens: r.cachedTokens };
        decision.onUsage(usage);
        decision.complete({ kind: 'success', usage });
        this.#finish(i, { ...base, firstTokenMs: first, finishMs: t, cachedTokens: r.cachedTokens, outputTokens: r.outputTokens, status: 'ok' });
      } else {
        decision.complete({ kind: 'error', status: 502 });
        this.#finish(i, { ...base, firstTokenMs: first, finishMs: t, cachedTokens: r.cachedTokens, outputTokens: r.outputTokens, status: 'error', reason: evicted ? 'evicted' : 'endpoint-failed' });
      }
    };
    try {
      pod.engine.submit(
        { id: item.id, promptTokens: tokens, maxOutputTokens: item.maxOutputTokens, adapter: item.adapter, outputSeed: item.outputSeed },
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
      pod.engine.abort(item.id);
    }, { once: true });
  }

  #finish(i: number, record: RequestRecord): void {
    if (this.#records[i] !== undefined) return;
    this.#records[i] = record;
    this.#done++;
    this.#lastEvent = Math.max(this.#lastEvent, record.finishMs);
    for (const d of this.#dependents.get(i) ?? []) {
      this.#clock.setTimeout(() => { this.#arrive(d, this.#engines[0]?.config.modelName ?? 'model'); }, this.#workload.items[d]?.delayMs ?? 0);
    }
    if (this.#done % this.#progressStep === 0 || this.#done === this.#workload.items.length) {
      this.#o.onProgress?.(this.#done, this.#workload.items.length, this.#clock.now());
    }
  }
}
