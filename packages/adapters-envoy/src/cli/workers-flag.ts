import { availableParallelism } from 'node:os';
import { SwitchyardError } from '@switchyard/core';

/**
 * `--workers N`: a positive integer, at most 4 × the CPUs (more processes than that only add
 * context switches and memory). Absent: 1, one process and no cluster.
 * @throws SwitchyardError `CONFIG_INVALID` naming `--workers`
 * @internal
 */
export function workersFlag(raw: string | undefined, cpus: number = availableParallelism()): number {
  if (raw === undefined) return 1;
  const max = Math.max(1, cpus) * 4;
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new SwitchyardError('CONFIG_INVALID', `--workers: expected an integer in 1..${max} (4 × ${cpus} CPUs), got "${raw}"`, { field: '--workers' });
  }
  return n;
}
