import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  EndpointPicker,
  EndpointPool,
  Scheduler,
  SwitchyardError,
  closePlugins,
  createDefaultRegistry,
  createSchedulerConfig,
  definePlugin,
  loadConfig,
  type AdmissionController,
  type DataProducer,
  type Filter,
  type Plugin,
  type Scorer,
} from '@switchyard/core';

function pool(): EndpointPool {
  const p = new EndpointPool();
  p.add({ id: 'a', address: '10.0.0.1:8000' });
  return p;
}

/** A scorer definition whose instances count their `close()` calls in `log`. */
function closingScorer(log: string[]) {
  return definePlugin({
    type: 'closing-scorer',
    parameters: z.strictObject({ fail: z.boolean().default(false), async: z.boolean().default(false) }),
    create: (p, ctx): Scorer => ({
      type: 'closing-scorer',
      name: ctx.name,
      score: (_c, _r, eps) => new Map(eps.map((e) => [e.id, 1])),
      close: p.async
        ? async () => {
            await Promise.resolve();
            log.push(`${ctx.name}:async`);
          }
        : () => {
            log.push(ctx.name);
            if (p.fail) throw new Error(`${ctx.name} refused to close`);
          },
    }),
  });
}

const DOC = `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: first
  type: closing-scorer
  parameters: { fail: true }
- name: second
  type: closing-scorer
  parameters: { async: true }
- name: third
  type: closing-scorer
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: first
  - pluginRef: second
  - pluginRef: third
`;

describe('EndpointPicker.close closes the plugins of its configuration', () => {
  it('closes every plugin once, after admission, collecting failures instead of stopping at the first', async () => {
    const log: string[] = [];
    const registry = createDefaultRegistry().register(closingScorer(log));
    const p = pool();
    const config = loadConfig(DOC, { registry, pool: p });
    const admission: AdmissionController = {
      admit: () => Promise.resolve({ release: () => undefined }),
      close: () => {
        log.push('admission');
        return Promise.resolve();
      },
    };
    const picker = new EndpointPicker({ pool: p, config, admission });
    const first = picker.close();
    const error = await first.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SwitchyardError);
    expect((error as SwitchyardError).code).toBe('INTERNAL');
    expect((error as SwitchyardError).message).toBe('closing 1 plugin failed: plugin "first" (type closing-scorer): first refused to close');
    expect(((error as SwitchyardError).cause as AggregateError).errors).toHaveLength(1);
    // Admission first, then every plugin, the failing one included and the later ones too.
    expect(log[0]).toBe('admission');
    expect([...log.slice(1)].sort()).toEqual(['first', 'second:async', 'third']);
    // Closing again is the same shutdown, not a second one.
    expect(picker.close()).toBe(first);
    await picker.close().catch(() => undefined);
    expect(log).toHaveLength(4);
  });

  it('closes hand-built plugins that are not in the plugins map, and each instance once even when shared', async () => {
    const calls = new Map<string, number>();
    const count = (name: string) => () => {
      calls.set(name, (calls.get(name) ?? 0) + 1);
    };
    const filter: Filter = { type: 'f', name: 'f', filter: (_c, _r, eps) => eps, close: count('f') };
    const scorer: Scorer = { type: 's', name: 's', score: (_c, _r, eps) => new Map(eps.map((e) => [e.id, 1])), close: count('s') };
    const producer: DataProducer = { type: 'p', name: 'p', produces: ['x'], consumes: [], produce: () => undefined, close: count('p') };
    const config = createSchedulerConfig({ profiles: [{ filters: [filter], scorers: [{ scorer, weight: 2 }] }], producers: [producer] });
    // A plugin only reachable through a profile (as a handler could build one) is closed too.
    const extra: Scorer = { type: 'x', name: 'x', score: () => new Map(), close: count('x') };
    const profile = config.profiles.get('default');
    if (profile === undefined) throw new Error('no default profile');
    const withExtra = { ...config, profiles: new Map([['default', { ...profile, scorers: [...profile.scorers, { scorer: extra, weight: 1 }] }]]) };

    const p = pool();
    const a = new EndpointPicker({ pool: p, config: withExtra });
    const b = new EndpointPicker({ pool: p, config: withExtra });
    await Promise.all([a.close(), b.close(), new Scheduler(withExtra).close()]);
    expect(Object.fromEntries(calls)).toEqual({ f: 1, s: 1, p: 1, x: 1 });
  });

  it('closePlugins reports every failure, skips plugins without close, and waits for closes started elsewhere', async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Plugin = { type: 'slow', name: 'slow', close: () => gate };
    const bad: Plugin = {
      type: 'bad',
      name: 'bad',
      close: () => {
        throw new Error('boom');
      },
    };
    const worse: Plugin = { type: 'worse', name: 'worse', close: () => Promise.reject(new Error('bang')) };
    const plain: Plugin = { type: 'plain', name: 'plain' };
    const firstClose = closePlugins([slow]);
    let secondDone = false;
    const second = closePlugins([slow, bad, worse, plain, bad]).finally(() => {
      secondDone = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(secondDone).toBe(false);
    release?.();
    await firstClose;
    await expect(second).rejects.toThrow('closing 2 plugins failed: plugin "bad" (type bad): boom; plugin "worse" (type worse): bang');
  });
});
