import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { SwitchyardError, isSwitchyardError } from '@switchyard/core';
import type { InferenceRequest } from '@switchyard/core';
import { buildUpstreamHeaders } from '../proxy/headers.js';
import { forwardRequest, type ForwardControl, type ForwardResult } from '../proxy/forward.js';
import { countsAsEndpointFailure } from '../proxy/upstream-errors.js';
import type { RouteResolution } from '../models/router.js';
import type { ForwardPlan } from './plan.js';
import { sendError } from './respond.js';
import type { GatewayRuntime } from './runtime.js';

/**
 * Forwards a scheduled request and settles its outcome: usage and lifecycle to the decision,
 * attempt results to the circuit breaker, errors to the client when nothing was sent yet.
 * `signal` is the client connection's; eviction (`plan.revoked`) and forced shutdown abort this
 * request alone through its forward control.
 * @public
 */
export async function forward(rt: GatewayRuntime, req: IncomingMessage, res: ServerResponse, request: InferenceRequest, route: RouteResolution, plan: ForwardPlan, signal: AbortSignal): Promise<void> {
  const poolName = route.pool.name;
  const rotation = route.pool.rotation;
  const pm = rt.metrics.forPool(poolName);
  const control: ForwardControl = { abort: undefined, reason: undefined };
  const revoked = plan.revoked;
  const onRevoked = (): void => {
    control.abort?.(revoked?.reason instanceof Error ? revoked.reason : new SwitchyardError('EVICTED', 'request evicted by flow control'));
  };
  revoked?.addEventListener('abort', onRevoked, { once: true });
  rt.tracker.addForwarding(control);
  pm.inFlight.inc();
  const started = rt.clock.now();
  let result: ForwardResult;
  try {
    const pending = forwardRequest({
      dispatcher: rt.dispatcher,
      res,
      method: (req.method ?? 'POST') as Dispatcher.HttpMethod,
      path: req.url ?? request.path,
      headers: buildUpstreamHeaders({ client: request.headers, decision: plan.headers, requestId: request.id, contentLength: plan.body.byteLength, clientIp: req.socket.remoteAddress }),
      body: plan.body,
      targets: plan.targets,
      maxAttempts: rt.maxAttempts,
      requestId: request.id,
      rewriteModel: plan.rewriteModel,
      responseHeaders: plan.responseHeaders,
      signal,
      control,
      headersTimeoutMs: rt.headersTimeoutMs,
      bodyTimeoutMs: rt.bodyTimeoutMs,
      onResponseStart: (endpoint, status) => {
        const at = rt.clock.now();
        pm.upstreamHeaderDuration.observe((at - started) / 1000);
        plan.onResponseStart({ endpoint, status, at });
      },
      onAttemptFailed: (endpoint, failure) => {
        rt.metrics.upstreamAttempts.labels(poolName, failure).inc();
        if (rotation !== undefined && countsAsEndpointFailure(failure)) rotation.recordFailure(endpoint.id);
      },
    });
    // forwardRequest armed `control` synchronously; a revocation that came first applies now.
    if (revoked?.aborted === true) onRevoked();
    result = await pending;
  } finally {
    revoked?.removeEventListener('abort', onRevoked);
    rt.tracker.deleteForwarding(control);
    pm.inFlight.dec();
  }
  if (result.attempts > 1) pm.retries.inc(result.attempts - 1);
  settle(rt, res, route, plan, control, signal, result, started);
}

function settle(rt: GatewayRuntime, res: ServerResponse, route: RouteResolution, plan: ForwardPlan, control: ForwardControl, signal: AbortSignal, result: ForwardResult, started: number): void {
  const pm = rt.metrics.forPool(route.pool.name);
  const rotation = route.pool.rotation;
  switch (result.kind) {
    case 'ok': {
      pm.attemptsOk.inc();
      const usage = result.usage;
      if (usage !== undefined) {
        plan.onUsage(usage);
        pm.promptTokens.inc(usage.promptTokens);
        pm.completionTokens.inc(usage.completionTokens);
        if (usage.cachedTokens !== undefined) pm.cachedTokens.inc(usage.cachedTokens);
      }
      const sick = result.status === 502 || result.status === 503 || result.status === 504;
      if (sick) rotation?.recordFailure(result.endpoint.id);
      else rotation?.recordSuccess(result.endpoint.id);
      plan.complete(result.status < 400 ? (usage === undefined ? { kind: 'success' } : { kind: 'success', usage }) : { kind: 'error', status: result.status });
      pm.requestDuration.observe((rt.clock.now() - started) / 1000);
      return;
    }
    case 'failed': {
      const code = result.failure === 'headers-timeout' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNAVAILABLE';
      const error = new SwitchyardError(code, `${result.attempts} attempt(s) failed; last: ${result.endpoint.address} (${result.failure})`, { cause: result.error });
      sendError(res, error);
      plan.complete({ kind: 'error', error, status: error.status });
      return;
    }
    case 'broken':
      plan.complete({ kind: 'error', error: result.error, status: result.status });
      return;
    case 'aborted': {
      // This request's own abort (eviction, forced shutdown) wins over the connection's.
      const reason: unknown = control.reason ?? signal.reason;
      if (isSwitchyardError(reason) && reason.code === 'REJECTED_CONTEXT_CANCELLED') {
        rt.metrics.clientAborts.labels('upstream').inc();
        plan.complete({ kind: 'cancelled' });
        return;
      }
      // Nothing sent yet: answer with the reason (the attempt already cut a started response).
      if (!result.headersSent) sendError(res, reason);
      plan.complete({ kind: 'error', error: reason });
    }
  }
}
