import { configPlugins, createConsoleHandler, type Clock, type ConsoleHandler, type DecisionLog, type EndpointPool, type LoadedConfig } from '@switchyard/core';
import { flowControlConsoleSource, type FlowController } from '@switchyard/flow-control';
import { prefixIndexConsoleSource, type PrefixIndexMetrics } from '@switchyard/prefix-index';

/**
 * The EPP's operator console over its one pool: endpoints, flow control when its feature gate is
 * on, and the prefix indexes the configuration's producers feed. Served on the metrics port.
 */
export function eppConsole(o: {
  pool: EndpointPool;
  decisions: DecisionLog;
  config: LoadedConfig;
  flowController: FlowController | undefined;
  prefixMetrics: PrefixIndexMetrics;
  clock: Clock;
  stalenessMs: number;
}): { handler: ConsoleHandler; close: () => void } {
  const fc = o.flowController === undefined ? undefined : flowControlConsoleSource(o.flowController, { clock: o.clock });
  const handler = createConsoleHandler({
    server: 'switchyard-epp',
    pools: [{ name: 'default', endpoints: o.pool, ...(fc === undefined ? {} : { flowControl: fc.snapshot }), prefixIndexes: prefixIndexConsoleSource(configPlugins(o.config), o.prefixMetrics) }],
    decisions: o.decisions,
    clock: o.clock,
    stalenessMs: o.stalenessMs,
  });
  return { handler, close: () => fc?.close() };
}
