import type { Registry } from 'prom-client';
import { configPlugins, createConsoleHandler, type Clock, type ConsoleHandler, type ConsolePoolSource, type DecisionLog } from '@switchyard/core';
import { flowControlConsoleSource } from '@switchyard/flow-control';
import { createPrefixIndexMetrics, prefixIndexConsoleSource } from '@switchyard/prefix-index';
import type { BuiltPool } from './build-pool.js';

/**
 * The gateway's operator console over its pools: every endpoint of each pool (rotated-out ones
 * included, marked by the circuit breaker), the pool's flow control, and the prefix indexes its
 * configuration's producers feed.
 */
export function gatewayConsole(o: { pools: readonly BuiltPool[]; decisions: DecisionLog; registry: Registry; clock: Clock; stalenessMs: number }): { handler: ConsoleHandler; close: () => void } {
  // The prefix-index metrics the plugins registered in the gateway's registry (reused, not new).
  const prefixMetrics = createPrefixIndexMetrics({ registry: o.registry });
  const closers: (() => void)[] = [];
  const sources = o.pools.map((p): ConsolePoolSource => {
    const rotation = p.pool.rotation;
    const fc = p.flowController === undefined ? undefined : flowControlConsoleSource(p.flowController, { clock: o.clock });
    if (fc !== undefined) closers.push(fc.close);
    return {
      name: p.pool.name,
      endpoints: p.source,
      ...(rotation === undefined ? {} : { isRotatedOut: (id: string) => rotation.isOut(id) }),
      ...(fc === undefined ? {} : { flowControl: fc.snapshot }),
      prefixIndexes: prefixIndexConsoleSource(configPlugins(p.config), prefixMetrics),
    };
  });
  const handler = createConsoleHandler({ server: 'switchyard-gateway', pools: sources, decisions: o.decisions, clock: o.clock, stalenessMs: o.stalenessMs });
  return {
    handler,
    close: () => {
      for (const c of closers) c();
    },
  };
}
