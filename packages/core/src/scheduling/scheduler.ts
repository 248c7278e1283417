import type { Endpoint } from '../endpoints/types.js';
import { SwitchyardError, isSwitchyardError } from '../errors/switchyard-error.js';
import { closePlugins, configPlugins } from './close-plugins.js';
import type { PluginObserver } from './observer.js';
import type { Admitter, CycleContext, Screener, DataProducer, Plugin, ProfileHandler, ProfileResult, RequestLifecycle, SchedulingProfile, SchedulingResult } from './plugins.js';
import { ProfileRunner } from './profile-runner.js';
import type { SchedulingRequest } from './request.js';

/**
 * Everything a scheduling cycle needs: the profiles, the handler choosing among them, the data
 * producers in run order, and every plugin instance (for lifecycle hooks). `loadConfig` returns
 * one; `createSchedulerConfig` builds one in code.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface SchedulerConfig {
  /** Profiles by name. */
  readonly profiles: ReadonlyMap<string, SchedulingProfile>;
  /** The one profile handler. */
  readonly profileHandler: ProfileHandler;
  /** Data producers, already in dependency order. */
  readonly producers: readonly DataProducer[];
  /** Every plugin instance by name; those implementing {@link RequestLifecycle} hooks get called. */
  readonly plugins: ReadonlyMap<string, Plugin>;
}

/**
 * Options of {@link Scheduler}.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface SchedulerOptions {
  /** Receives sampled per-plugin timings. */
  readonly observer?: PluginObserver | undefined;
  /** Called when a data producer throws (the cycle continues without its attributes). */
  readonly onProducerError?: ((producer: DataProducer, error: unknown) => void) | undefined;
}

const MAX_HANDLER_ROUNDS = 64;

function hasLifecycle(p: Plugin): p is Plugin & RequestLifecycle {
  const l = p as Partial<RequestLifecycle>;
  return typeof l.preRequest === 'function' || typeof l.onResponseStart === 'function' || typeof l.onUsage === 'function' || typeof l.onResponseBody === 'function' || typeof l.onComplete === 'function';
}

/**
 * Runs scheduling cycles over a {@link SchedulerConfig}: producers in order (errors recorded in
 * the trace, not fatal), then the profile-handler loop over Filter → Score → Pick profiles.
 * The `EndpointPicker` wraps it with admission, headers and lifecycle; simulators and tests may
 * use it directly.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export class Scheduler {
  /** The configuration this scheduler runs. */
  readonly config: SchedulerConfig;
  /** Plugins implementing at least one lifecycle hook, in configuration order. */
  readonly lifecycle: readonly (Plugin & RequestLifecycle)[];
  /** Admitters, in configuration order. */
  readonly admitters: readonly Admitter[];
  /** Screeners, in configuration order. */
  readonly screeners: readonly Screener[];
  readonly #runners = new Map<string, ProfileRunner>();
  readonly #observer: PluginObserver | undefined;
  readonly #onProducerError: SchedulerOptions['onProducerError'];
  #cycle = 0;
  #closed: Promise<void> | undefined;

  constructor(config: SchedulerConfig, options: SchedulerOptions = {}) {
    this.config = config;
    this.lifecycle = [...config.plugins.values()].filter(hasLifecycle);
    this.admitters = [...config.plugins.values()].filter((p): p is Admitter => typeof (p as Partial<Admitter>).admitRequest === 'function');
    this.screeners = [...config.plugins.values()].filter((p): p is Screener => typeof (p as Partial<Screener>).screen === 'function');
    for (const [name, profile] of config.profiles) this.#runners.set(name, new ProfileRunner(profile));
    this.#observer = options.observer;
    this.#onProducerError = options.onProducerError;
  }

  /** The observer to use for the next cycle, honouring its sampling rate. */
  sampleObserver(): PluginObserver | undefined {
    const o = this.#observer;
    if (o === undefined) return undefined;
    this.#cycle = (this.#cycle + 1) % Math.max(1, o.sampleEvery);
    return this.#cycle === 0 ? o : undefined;
  }

  /**
   * Runs the screeners on the same candidates and keeps the endpoints every one kept.
   * @throws SwitchyardError `REJECTED_NO_ENDPOINTS` when none is left
   */
  screen(ctx: CycleContext, request: SchedulingRequest, candidates: readonly Endpoint[]): readonly Endpoint[] {
    let kept: readonly Endpoint[] = candidates;
    for (const s of this.screeners) {
      const out = new Set(s.screen(ctx, request, candidates));
      kept = kept.filter((e) => out.has(e));
    }
    if (kept.length === 0) throw new SwitchyardError('REJECTED_NO_ENDPOINTS', 'the screeners left no candidate endpoint');
    return kept;
  }

  /**
   * Runs the admitters in order after the producers; the first denial wins.
   * @throws SwitchyardError `ADMISSION_DENIED` naming the admitter and its reason
   */
  admit(ctx: CycleContext, request: SchedulingRequest, candidates: readonly Endpoint[]): void {
    for (const a of this.admitters) {
      const reason = a.admitRequest(ctx, request, candidates);
      if (reason !== undefined) throw new SwitchyardError('ADMISSION_DENIED', `request cannot be admitted: ${a.name}: ${reason}`);
    }
  }

  /**
   * Runs the data producers in order. Synchronous producers run without awaiting; the returned
   * promise is undefined when every producer finished synchronously.
   */
  produce(ctx: CycleContext, request: SchedulingRequest, candidates: readonly Endpoint[], signal?: AbortSignal, observer?: PluginObserver): Promise<void> | undefined {
    const producers = this.config.producers;
    for (let i = 0; i < producers.length; i++) {
      const p = producers[i] as DataProducer;
      const t0 = observer === undefined ? 0 : ctx.clock.now();
      let r: void | Promise<void>;
      try {
        r = p.produce(ctx, request, candidates, signal);
      } catch (error) {
        this.#producerFailed(ctx, p, error);
        continue;
      }
      if (r instanceof Promise) return this.#produceAsync(ctx, request, candidates, signal, observer, i, r, t0);
      if (observer !== undefined) observer.record('DataProducer', p, ctx.clock.now() - t0);
      ctx.trace?.producer(p.name);
    }
    return undefined;
  }

  async #produceAsync(
    ctx: CycleContext,
    request: SchedulingRequest,
    candidates: readonly Endpoint[],
    signal: AbortSignal | undefined,
    observer: PluginObserver | undefined,
    index: number,
    pending: Promise<void>,
    t0: number,
  ): Promise<void> {
    const producers = this.config.producers;
    for (let i = index; i < producers.length; i++) {
      const p = producers[i] as DataProducer;
      const start = i === index ? t0 : observer === undefined ? 0 : ctx.clock.now();
      try {
        await (i === index ? pending : p.produce(ctx, request, candidates, signal));
      } catch (error) {
        this.#producerFailed(ctx, p, error);
        continue;
      }
      if (observer !== undefined) observer.record('DataProducer', p, ctx.clock.now() - start);
      ctx.trace?.producer(p.name);
    }
  }

  #producerFailed(ctx: CycleContext, p: DataProducer, error: unknown): void {
    ctx.trace?.producer(p.name, error);
    this.#onProducerError?.(p, error);
  }

  /**
   * Runs the profile handler loop over `candidates` and returns the cycle's result.
   * @throws SwitchyardError `REJECTED_SATURATED` when the primary profile's filters removed every
   * endpoint, or whatever the profile handler throws
   */
  schedule(ctx: CycleContext, request: SchedulingRequest, candidates: readonly Endpoint[], observer?: PluginObserver): SchedulingResult {
    const handler = this.config.profileHandler;
    const profiles = this.config.profiles;
    const results = new Map<string, ProfileResult | null>();
    let errors: SwitchyardError[] | undefined;
    for (let round = 0; ; round++) {
      const next = handler.pickProfiles(ctx, request, profiles, results);
      if (next.length === 0) break;
      if (round >= MAX_HANDLER_ROUNDS) {
        throw new SwitchyardError('INTERNAL', `profile handler "${handler.name}" did not finish after ${MAX_HANDLER_ROUNDS} rounds`);
      }
      for (const profile of next) {
        const runner = this.#runners.get(profile.name) ?? this.#adopt(profile);
        const outcome = runner.run(ctx, request, candidates, observer);
        results.set(profile.name, outcome.result);
        if (outcome.error !== undefined) (errors ??= []).push(outcome.error);
      }
    }
    try {
      return handler.processResults(ctx, request, results);
    } catch (error) {
      // The profiles' own failures say more than the handler's summary (which filter emptied what).
      if (errors !== undefined && (!isSwitchyardError(error) || error.code === 'REJECTED_SATURATED')) {
        const first = errors[0] as SwitchyardError;
        throw errors.length === 1 ? first : new SwitchyardError(first.code, errors.map((e) => e.message).join('; '));
      }
      throw error;
    }
  }

  /**
   * Closes every plugin of the configuration that has a `close()` (once per instance, however
   * often this is called), even when some fail.
   * @throws SwitchyardError `INTERNAL` naming the plugins whose `close()` failed
   */
  close(): Promise<void> {
    this.#closed ??= closePlugins(configPlugins(this.config));
    return this.#closed;
  }

  /** A handler may return a profile object built on the fly; give it a runner too. */
  #adopt(profile: SchedulingProfile): ProfileRunner {
    const runner = new ProfileRunner(profile);
    this.#runners.set(profile.name, runner);
    return runner;
  }
}
