import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { SwitchyardError, isSwitchyardError, parseRequest } from '@switchyard/core';
import type { Classification, Decision, InferenceRequest } from '@switchyard/core';
import { buildUpstreamHeaders } from '../proxy/headers.js';
import { forwardRequest, type ForwardResult } from '../proxy/forward.js';
import { countsAsEndpointFailure } from '../proxy/upstream-errors.js';
import type { RouteResolution } from '../models/router.js';
import { ClientGoneError, readBody } from './body.js';
import { failOpenPlan, planFromDecision, type ForwardPlan } from './plan.js';
import { sendError } from './respond.js';
import type { GatewayRuntime } from './runtime.js';
import type { EndpointRotation } from './rotation.js';
import type { PendingDecision } from './tracker.js';

/** Status recorded for requests whose client left before any answer (nginx's convention). */
const CLIENT_CLOSED = 499;

/** Abort reason when the client disconnects. */
const clientGone = (): SwitchyardError => new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'client disconnected');

/**
 * Serves one inference request end to end: body (413) → parse (400) → route (404) → classify →
 * pick (contract errors; FailOpen/FailClose on scheduler failure) → forward with retries → relay.
 * Every request ends with exactly one outcome: an answer, a relayed response, or a cut connection;
 * the decision's lifecycle is completed exactly once. Never rejects.
 * @public
 */
export async function handleInference(rt: GatewayRuntime, req: IncomingMessage, res: ServerResponse, path: string, preRead: Uint8Array | undefined): Promise<void> {
  try {
    let body: Uint8Array;
    try {
      body = preRead ?? (await readBody(req, rt.maxBodyBytes));
    } catch (err) {
      if (err instanceof ClientGoneError) rt.metrics.clientAborts.labels('body').inc();
      else sendError(res, err, {}, true);
      return;
    }
    if (rt.tracker.shuttingDown) {
      sendError(res, new SwitchyardError('REJECTED_SHUTTING_DOWN', 'the gateway is shutting down'));
      return;
    }
    let request: InferenceRequest;
    try {
      request = parseRequest({ path, headers: req.headers, body }, rt.parseOptions);
    } catch (err) {
      sendError(res, err);
      return;
    }
    const route = rt.router.resolve(request.model);
    if (route === undefined) {
      sendError(res, new SwitchyardError('MODEL_NOT_FOUND', `model "${request.model}" is not served by this gateway (see GET /v1/models)`));
      return;
    }
    await schedule(rt, req, res, request, route);
  } catch (err) {
    // Defensive: a bug must still produce an answer (or a cut connection), never a hung request.
    sendError(res, err);
  } finally {
    rt.metrics.countRequest('inference', res.headersSent ? res.statusCode : CLIENT_CLOSED);
  }
}

async function classificationFor(rt: GatewayRuntime, req: IncomingMessage, request: InferenceRequest, route: RouteResolution): Promise<Classification | undefined> {
  const fromHook = rt.classify === undefined ? undefined : await rt.classify(req, request);
  if (route.modelRewrite === undefined) return fromHook;
  return { ...fromHook, modelRewrite: route.modelRewrite };
}

async function schedule(rt: GatewayRuntime, req: IncomingMessage, res: ServerResponse, request: InferenceRequest, route: RouteResolution): Promise<void> {
  const pool = route.pool;
  let classification: Classification | undefined;
  try {
    classification = await classificationFor(rt, req, request, route);
  } catch (err) {
    sendError(res, err);
    return;
  }
  const controller = new AbortController();
  const onClose = (): void => {
    if (!res.writableFinished) controller.abort(clientGone());
  };
  res.once('close', onClose);
  try {
    const plan = await decide(rt, req, res, request, route, classification, controller);
    if (plan === undefined) return;
    if (controller.signal.aborted) {
      // The client left (or shutdown answered it) while the decision was being made.
      plan.complete({ kind: 'cancelled' });
      return;
    }
    await forward(rt, req, res, request, pool.name, plan, controller, route);
  } finally {
    res.off('close', onClose);
  }
}

async function decide(
  rt: GatewayRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  request: InferenceRequest,
  route: RouteResolution,
  classification: Classification | undefined,
  controller: AbortController,
): Promise<ForwardPlan | undefined> {
  const pool = route.pool;
  const started = rt.clock.now();
  const pending: PendingDecision = {
    shutdown: () => {
      sendError(res, new SwitchyardError('REJECTED_SHUTTING_DOWN', 'the gateway is shutting down'));
      controller.abort(new SwitchyardError('REJECTED_SHUTTING_DOWN', 'the gateway is shutting down'));
    },
  };
  if (rt.tracker.shuttingDown) {
    pending.shutdown();
    return undefined;
  }
  const pm = rt.metrics.forPool(pool.name);
  const gauge = pm.scheduling;
  rt.tracker.addPending(pending);
  gauge.inc();
  let decision: Decision;
  try {
    decision = await pool.scheduler.pick(request, {
      signal: controller.signal,
      trustHeaders: rt.trusts(req),
      ...(classification === undefined ? {} : { classification }),
      trace: rt.trace,
    });
  } catch (err) {
    if (controller.signal.aborted) {
      // Shutdown already answered; a departed client needs no answer.
      if (!res.headersSent) rt.metrics.clientAborts.labels('scheduling').inc();
      return undefined;
    }
    if (isSwitchyardError(err) && err.code !== 'INTERNAL') {
      sendError(res, err);
      return undefined;
    }
    return onSchedulerFailure(rt, res, request, route, err);
  } finally {
    rt.tracker.deletePending(pending);
    gauge.dec();
    pm.schedulingDuration.observe((rt.clock.now() - started) / 1000);
  }
  return planFromDecision(decision, pool.rotation);
}

function onSchedulerFailure(rt: GatewayRuntime, res: ServerResponse, request: InferenceRequest, route: RouteResolution, err: unknown): ForwardPlan | undefined {
  const pool = route.pool;
  if (rt.failureMode === 'FailClose') {
    rt.metrics.pickerFailures.labels(pool.name, 'fail_close').inc();
    sendError(res, new SwitchyardError('INTERNAL', 'the scheduler failed and the gateway fails closed', { cause: err }));
    return undefined;
  }
  rt.metrics.pickerFailures.labels(pool.name, 'fail_open').inc();
  const plan = failOpenPlan(pool, request, route.modelRewrite, rt.failOpenCursor, rt.maxAttempts);
  if (plan === undefined) sendError(res, new SwitchyardError('REJECTED_NO_ENDPOINTS', `the scheduler failed and pool "${pool.name}" has no endpoint to fail open to`));
  return plan;
}

async function forward(rt: GatewayRuntime, req: IncomingMessage, res: ServerResponse, request: InferenceRequest, poolName: string, plan: ForwardPlan, controller: AbortController, route: RouteResolution): Promise<void> {
  const m = rt.metrics;
  const pm = m.forPool(poolName);
  const rotation = route.pool.rotation;
  const onRevoked = (): void => { controller.abort(plan.revoked?.reason); };
  plan.revoked?.addEventListener('abort', onRevoked, { once: true });
  if (plan.revoked?.aborted === true) onRevoked();
  rt.tracker.addForwarding(controller);
  const inFlight = pm.inFlight;
  inFlight.inc();
  const started = rt.clock.now();
  let result: ForwardResult;
  try {
    result = await forwardRequest({
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
      signal: controller.signal,
      headersTimeoutMs: rt.headersTimeoutMs,
      bodyTimeoutMs: rt.bodyTimeoutMs,
      onResponseStart: (endpoint, status) => {
        const at = rt.clock.now();
        pm.upstreamHeaderDuration.observe((at - started) / 1000);
        plan.onResponseStart({ endpoint, status, at });
      },
      onAttemptFailed: (endpoint, failure) => {
        m.upstreamAttempts.labels(poolName, failure).inc();
        if (rotation !== undefined && countsAsEndpointFailure(failure)) rotation.recordFailure(endpoint.id);
      },
    });
  } finally {
    plan.revoked?.removeEventListener('abort', onRevoked);
    rt.tracker.deleteForwarding(controller);
    inFlight.dec();
  }
  if (result.attempts > 1) pm.retries.inc(result.attempts - 1);
  settle(rt, res, poolName, rotation, plan, controller, result, started);
}

function settle(
  rt: GatewayRuntime,
  res: ServerResponse,
  poolName: string,
  rotation: EndpointRotation | undefined,
  plan: ForwardPlan,
  controller: AbortController,
  result: ForwardResult,
  started: number,
): void {
  const m = rt.metrics;
  const pm = m.forPool(poolName);
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
      const reason: unknown = controller.signal.reason;
      const clientLeft = isSwitchyardError(reason) && reason.code === 'REJECTED_CONTEXT_CANCELLED';
      if (clientLeft) {
        m.clientAborts.labels('upstream').inc();
        plan.complete({ kind: 'cancelled' });
        return;
      }
      // Eviction or forced shutdown: answer if nothing was sent (the attempt cut started responses).
      if (!result.headersSent) sendError(res, reason);
      plan.complete({ kind: 'error', error: reason });
    }
  }
}
