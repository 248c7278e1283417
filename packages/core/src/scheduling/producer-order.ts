import { SwitchyardError } from '../errors/switchyard-error.js';
import type { DataProducer } from './plugins.js';

/**
 * Orders data producers so every producer runs after the producers of the attributes it
 * consumes (Kahn's algorithm, keeping the given order among independent producers).
 * @throws SwitchyardError `CONFIG_INVALID` naming the producers of a dependency cycle
 * @public
 */
export function orderProducers(producers: readonly DataProducer[]): DataProducer[] {
  const producersOf = new Map<string, number[]>();
  producers.forEach((p, i) => {
    for (const key of p.produces) producersOf.set(key, [...(producersOf.get(key) ?? []), i]);
  });
  const deps = producers.map((p, i) => {
    const d = new Set<number>();
    for (const key of p.consumes) for (const j of producersOf.get(key) ?? []) if (j !== i) d.add(j);
    return d;
  });
  const done = new Set<number>();
  const out: DataProducer[] = [];
  while (out.length < producers.length) {
    const next = producers.findIndex((_p, i) => !done.has(i) && [...(deps[i] ?? [])].every((j) => done.has(j)));
    if (next < 0) {
      const stuck = producers.filter((_p, i) => !done.has(i)).map((p) => `${p.name} (consumes ${p.consumes.join(', ')})`);
      throw new SwitchyardError('CONFIG_INVALID', `data producers form a dependency cycle: ${stuck.join(' → ')}`);
    }
    done.add(next);
    out.push(producers[next] as DataProducer);
  }
  return out;
}
