import type { Logger } from 'pino';
import type { DecisionRecord } from '../console/decision-log.js';
import type { DecisionListener } from '../console/recording-scheduler.js';

/**
 * The request log: one line per request when it ends, keyed by `requestId` (the `x-request-id`
 * the gateway forwards to the model server and returns to the client, so gateway, picker and
 * upstream lines correlate). Successes are `debug` (a busy gateway would write thousands a
 * second), failures and rejections `warn`.
 * @public
 * @category Logging
 */
export function requestLogger(logger: Logger): DecisionListener {
  return (r: DecisionRecord) => {
    const failed = r.outcome === 'error' || r.outcome === 'rejected';
    if (!logger.isLevelEnabled(failed ? 'warn' : 'debug')) return;
    const fields = {
      requestId: r.requestId,
      pool: r.pool,
      model: r.model,
      ...(r.targetModel !== '' && r.targetModel !== r.model ? { targetModel: r.targetModel } : {}),
      tenant: r.fairnessId,
      priority: r.priority,
      endpoint: r.endpoint,
      ...(r.fallbacks.length === 0 ? {} : { fallbacks: r.fallbacks }),
      outcome: r.outcome,
      ...(r.error === undefined ? {} : { error: r.error }),
      scheduleMs: r.scheduleMs,
      totalMs: r.totalMs,
      ...(r.usage === undefined ? {} : { promptTokens: r.usage.promptTokens, completionTokens: r.usage.completionTokens }),
    };
    if (failed) logger.warn(fields, 'request failed');
    else logger.debug(fields, 'request done');
  };
}
