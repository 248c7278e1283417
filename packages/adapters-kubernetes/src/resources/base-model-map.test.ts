import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BaseModelMap, parseModelMapping, type ModelMapping } from './base-model-map.js';

const cm = (data: Record<string, string>): Parameters<typeof parseModelMapping>[0] => ({ metadata: { name: 'm', namespace: 'llm' }, data });

describe('parseModelMapping (IPP ConfigMap data)', () => {
  it('reads baseModel and the YAML adapter list, trimmed, blanks skipped', () => {
    expect(parseModelMapping(cm({ baseModel: ' llama-3 ', adapters: '- sql-lora\n-  chat-lora \n- ""\n' }))).toEqual({ baseModel: 'llama-3', adapters: ['sql-lora', 'chat-lora'] });
    expect(parseModelMapping(cm({ baseModel: 'b', adapters: '[a, b2]' }))).toEqual({ baseModel: 'b', adapters: ['a', 'b2'] });
    expect(parseModelMapping(cm({ baseModel: 'b' }))).toEqual({ baseModel: 'b', adapters: [] });
  });

  it('names the bad field', () => {
    expect(parseModelMapping(cm({ adapters: '- a' }))).toBe('ConfigMap llm/m: data.baseModel: required');
    expect(parseModelMapping(cm({ baseModel: '  ' }))).toBe('ConfigMap llm/m: data.baseModel: required');
    expect(parseModelMapping(cm({ baseModel: 'b', adapters: 'a: 1' }))).toBe('ConfigMap llm/m: data.adapters: expected a YAML list of adapter names');
    expect(parseModelMapping(cm({ baseModel: 'b', adapters: '- [x]' }))).toBe('ConfigMap llm/m: data.adapters[0]: expected a string');
    expect(parseModelMapping(cm({ baseModel: 'b', adapters: '- "unterminated' }))).toMatch(/^ConfigMap llm\/m: data\.adapters: not YAML/);
  });
});

describe('BaseModelMap', () => {
  it('answers IPP\'s lookup: an adapter gives its base, a base itself, anything else ""', () => {
    const map = new BaseModelMap();
    map.set('llm/a', { baseModel: 'llama', adapters: ['sql'] });
    expect([map.baseModelOf('sql'), map.baseModelOf('llama'), map.baseModelOf('other')]).toEqual(['llama', 'llama', '']);
  });

  it('keeps a base model while any ConfigMap names it, and reports adapter conflicts (first claim wins)', () => {
    const map = new BaseModelMap();
    let changes = 0;
    map.on('change', () => changes++);
    map.set('llm/a', { baseModel: 'llama', adapters: ['sql'] });
    map.set('llm/b', { baseModel: 'llama', adapters: ['chat'] });
    map.set('llm/c', { baseModel: 'qwen', adapters: ['sql'] });
    expect(map.baseModelOf('sql')).toBe('llama');
    expect(map.conflicts).toEqual(['adapter "sql" of llm/c is already served by base model "llama" (llm/a)']);
    map.delete('llm/a');
    expect([map.baseModelOf('llama'), map.baseModelOf('chat'), map.baseModelOf('sql')]).toEqual(['llama', 'llama', 'qwen']);
    expect(map.conflicts).toEqual([]);
    map.delete('llm/b');
    expect(map.baseModelOf('llama')).toBe('');
    expect(changes).toBe(5);
  });

  it('always equals a lookup recomputed from the ConfigMaps present (random set/delete sequences)', () => {
    const source = fc.constantFrom('ns/a', 'ns/b', 'ns/c', 'ns/d');
    const model = fc.constantFrom('llama', 'qwen', 'sql', 'chat', 'code');
    const mapping: fc.Arbitrary<ModelMapping> = fc.record({ baseModel: model, adapters: fc.uniqueArray(model, { maxLength: 3 }) });
    const op = fc.oneof(fc.tuple(fc.constant('set' as const), source, mapping), fc.tuple(fc.constant('delete' as const), source));
    fc.assert(fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
      const map = new BaseModelMap();
      const present = new Map<string, ModelMapping>();
      for (const o of ops) {
        if (o[0] === 'set') {
          map.set(o[1], o[2]);
          // Replacing keeps the ConfigMap's first-seen position, as a Map does.
          present.set(o[1], o[2]);
        } else {
          map.delete(o[1]);
          present.delete(o[1]);
        }
      }
      for (const name of ['llama', 'qwen', 'sql', 'chat', 'code']) {
        const bases = [...present.values()].map((m) => m.baseModel);
        const claim = [...present.values()].find((m) => m.adapters.includes(name));
        const expected = bases.includes(name) ? name : (claim?.baseModel ?? '');
        expect(map.baseModelOf(name)).toBe(expected);
      }
    }), { numRuns: 500 });
  });
});
