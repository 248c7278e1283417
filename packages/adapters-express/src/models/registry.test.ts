import { describe, expect, it } from 'vitest';
import { EndpointPool, isSwitchyardError, type RequestScheduler } from '@switchyard/core';
import { ModelRegistry, type GatewayPool } from '@switchyard/express';

const scheduler: RequestScheduler = { pick: () => Promise.reject(new Error('unused')) };
const pool = (name: string, models: string[]): GatewayPool => ({ name, scheduler, endpoints: new EndpointPool(), models });

const configError = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (isSwitchyardError(err) && err.code === 'CONFIG_INVALID') return err.message;
    throw err;
  }
  throw new Error('expected CONFIG_INVALID');
};

describe('ModelRegistry', () => {
  const llama = pool('llama', ['llama-3-8b', 'sql-lora', 'chat-lora']);
  const qwen = pool('qwen', ['qwen-2']);
  const canary = pool('llama-canary', ['llama-3-8b-ft']);

  it('resolves base models and LoRA adapters to their pool, unknown names to undefined', () => {
    const r = new ModelRegistry({ pools: [llama, qwen] });
    expect(r.resolve('sql-lora')?.pool.name).toBe('llama');
    expect(r.resolve('qwen-2')).toEqual({ pool: qwen, modelRewrite: undefined });
    expect(r.resolve('gpt-4')).toBeUndefined();
    expect(r.listModels().map((m) => [m.id, m.owned_by])).toEqual([
      ['llama-3-8b', 'llama'],
      ['sql-lora', 'llama'],
      ['chat-lora', 'llama'],
      ['qwen-2', 'qwen'],
    ]);
  });

  it('splits a route by weight and renames per branch', () => {
    let x = 0;
    const r = new ModelRegistry({
      pools: [llama, canary],
      routes: [{ name: 'llama-3', split: [{ pool: 'llama', weight: 90, model: 'llama-3-8b' }, { pool: 'llama-canary', weight: 10, model: 'llama-3-8b-ft' }] }],
      random: () => x,
    });
    const counts = { llama: 0, 'llama-canary': 0 } as Record<string, number>;
    for (let i = 0; i < 1000; i++) {
      x = i / 1000;
      const res = r.resolve('llama-3');
      counts[res?.pool.name ?? 'none'] = (counts[res?.pool.name ?? 'none'] ?? 0) + 1;
    }
    expect(counts).toEqual({ llama: 900, 'llama-canary': 100 });
    x = 0.95;
    expect(r.resolve('llama-3')?.modelRewrite).toBe('llama-3-8b-ft');
    expect(r.listModels().at(-1)).toMatchObject({ id: 'llama-3', owned_by: 'split' });
  });

  it.each([
    ['duplicate model names across pools', () => new ModelRegistry({ pools: [llama, pool('other', ['sql-lora'])] }), /sql-lora.*globally unique/],
    ['duplicate pool names', () => new ModelRegistry({ pools: [llama, pool('llama', ['x'])] }), /duplicate pool name/],
    ['a route shadowing a model', () => new ModelRegistry({ pools: [llama], routes: [{ name: 'chat-lora', split: [{ pool: 'llama', weight: 1 }] }] }), /routes\[0\]\.name/],
    ['an unknown pool in a split', () => new ModelRegistry({ pools: [llama], routes: [{ name: 'r', split: [{ pool: 'nope', weight: 1 }] }] }), /split\[0\]\.pool: unknown pool "nope"/],
    ['a zero weight', () => new ModelRegistry({ pools: [llama], routes: [{ name: 'r', split: [{ pool: 'llama', weight: 0 }] }] }), /weight: must be a positive number/],
    ['an empty split', () => new ModelRegistry({ pools: [llama], routes: [{ name: 'r', split: [] }] }), /at least one target/],
    ['a branch model owned by another pool', () => new ModelRegistry({ pools: [llama, qwen], routes: [{ name: 'r', split: [{ pool: 'qwen', weight: 1, model: 'sql-lora' }] }] }), /served by pool "llama"/],
    ['an empty model name', () => new ModelRegistry({ pools: [pool('p', [''])] }), /models\[0\]: must not be empty/],
  ])('rejects %s', (_what, fn, message) => {
    expect(configError(fn)).toMatch(message);
  });
});
