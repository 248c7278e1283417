import { SwitchyardError } from '../errors/switchyard-error.js';
import type { Plugin } from './plugins.js';
import type { SchedulerConfig } from './scheduler.js';

/** What one plugin's `close()` ended with; never rejects, so callers can wait without catching. */
type CloseOutcome = { readonly ok: true } | { readonly ok: false; readonly error: unknown };

/**
 * One close per plugin instance, process-wide: a configuration shared by two schedulers (the
 * simulator does this) must still see each plugin's sockets and timers released exactly once.
 */
const closing = new WeakMap<Plugin, Promise<CloseOutcome>>();

function invokeClose(plugin: Plugin): Promise<CloseOutcome> {
  try {
    // Called as a method so implementations may rely on `this`.
    return Promise.resolve(plugin.close?.()).then(
      (): CloseOutcome => ({ ok: true }),
      (error: unknown): CloseOutcome => ({ ok: false, error }),
    );
  } catch (error) {
    return Promise.resolve({ ok: false, error });
  }
}

/**
 * Every plugin instance a configuration holds, each once, in a stable order: the named plugins,
 * then the profile handler, the producers and the profiles' filters, scorers and pickers (a
 * hand-built configuration may hold instances that are not in its `plugins` map).
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export function configPlugins(config: SchedulerConfig): Plugin[] {
  const seen = new Set<Plugin>(config.plugins.values());
  seen.add(config.profileHandler);
  for (const p of config.producers) seen.add(p);
  for (const profile of config.profiles.values()) {
    for (const f of profile.filters) seen.add(f);
    for (const s of profile.scorers) seen.add(s.scorer);
    seen.add(profile.picker);
  }
  return [...seen];
}

/**
 * Calls `close()` on every plugin that has one, all of them even when some fail, and at most once
 * per instance however often (or from however many schedulers) this is called; a second caller
 * waits for the first close to finish.
 * @throws SwitchyardError `INTERNAL` after every plugin was closed, when at least one `close()`
 * threw or rejected during this call; the message names each failed plugin and the `cause` is an
 * `AggregateError` of the original errors
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export async function closePlugins(plugins: Iterable<Plugin>): Promise<void> {
  const mine: { plugin: Plugin; done: Promise<CloseOutcome> }[] = [];
  const others: Promise<CloseOutcome>[] = [];
  for (const plugin of new Set(plugins)) {
    if (typeof plugin.close !== 'function') continue;
    const running = closing.get(plugin);
    if (running !== undefined) {
      others.push(running);
      continue;
    }
    const done = invokeClose(plugin);
    closing.set(plugin, done);
    mine.push({ plugin, done });
  }
  const outcomes = await Promise.all(mine.map((m) => m.done));
  // Failures of closes started by someone else were reported to them; only wait for those.
  await Promise.all(others);
  const failed: { plugin: Plugin; error: unknown }[] = [];
  outcomes.forEach((o, i) => {
    if (!o.ok) failed.push({ plugin: (mine[i] as (typeof mine)[number]).plugin, error: o.error });
  });
  if (failed.length === 0) return;
  const detail = failed.map(({ plugin, error }) => `plugin "${plugin.name}" (type ${plugin.type}): ${error instanceof Error ? error.message : String(error)}`).join('; ');
  throw new SwitchyardError('INTERNAL', `closing ${failed.length} plugin${failed.length === 1 ? '' : 's'} failed: ${detail}`, {
    cause: new AggregateError(
      failed.map((f) => f.error),
      detail,
    ),
  });
}

/**
 * Closes plugins on an error path without waiting: the error being thrown is the one to report,
 * but plugins that already hold sockets or timers (ZMQ subscribers) must not keep the process
 * alive. Close failures are dropped.
 * @public
 */
export function abandonPlugins(plugins: Iterable<Plugin>): void {
  closePlugins(plugins).catch(() => undefined);
}
