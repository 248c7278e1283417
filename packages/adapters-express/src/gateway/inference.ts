import type { IncomingMessage, ServerResponse } from 'node:http';
import { SwitchyardError, isSwitchyardError, parseRequest } from '@switchyard/core';
import type { Classification, Decision, InferenceRequest } from '@switchyard/core';
import type { RouteResolution } from '../models/router.js';
import { ClientGoneError, readBody } from './body.js';
import { abortConnection, connectionSignal } from './connection.js';
import { forward } from './forwarding.js';
import { failOpenPlan, planFromDecision, type ForwardPlan } from './plan.js';
import { sendError } from './respond.js';
import type { GatewayRuntime } from './runtime.js';
import type { PendingDecision } from './tracker.js';

/** Status recorded for requests whose client left before any answer (nginx's convention). */
const CLIENT_CLOSED = 499;

const shuttingDown = (): SwitchyardError => new SwitchyardError('REJECTED_SHUTTING_DOWN', 'the gateway is shutting down');

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
      sendError(res, shuttingDown(), {}, true);
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
    let classification: Classification | undefined;
    try {
      classification = await classificationFor(rt, req, request, route);
    } catch (err) {
      sendError(res, err);
      return;
    }
    const signal = connectionSignal(req.socket);
    const plan = await decide(rt, req, res, request, route, classification, signal);
    if (plan === undefined) return;
    if (signal.aborted) {
      // The client left (or shutdown answered it) while the decision was being made.
      plan.complete({ kind: 'cancelled' });
      return;
    }
    await forward(rt, req, res, request, route, plan, signal);
  } catch (err) {
    // Defensive: a bug must still produce an answer (or a cut connection), never a hung request.
    sendError(res, err);
  } finally {
    rt.metrics.countRequest('inference', res.headersSent ? res.statusCode : CLIENT_CLOSED);
  }
}

/** The hook's classification plus the route's rename; synchronous when there is no hook. */
function classificationFor(rt: GatewayRuntime, req: IncomingMessage, request: InferenceRequest, route: RouteResolution): Classification | undefined | Promise<Classification | undefined> {
  const rewrite = route.modelRewrite;
  if (rt.classify === undefined) return rewrite === undefined ? undefined : { modelRewrite: rewrite };
  return Promise.resolve(rt.classify(req, request)).then((c) => (rewrite === undefined ? c : { ...c, modelRewrite: rewrite }));
}

async function decide(
  rt: GatewayRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  request: InferenceRequest,
  route: RouteResolution,
  classification: Classification | undefined,
  signal: AbortSignal,
): Promise<ForwardPlan | undefined> {
  const pool = route.pool;
  const pending: PendingDecision = {
    shutdown: () => {
      sendError(res, shuttingDown(), {}, true);
      // Cancels the pick (a queued request frees its slot); the connection is closing anyway.
      abortConnection(req.socket, shuttingDown());
    },
  };
  if (rt.tracker.shuttingDown) {
    pending.shutdown();
    return undefined;
  }
  const started = rt.clock.now();
  const pm = rt.metrics.forPool(pool.name);
  rt.tracker.addPending(pending);
  pm.scheduling.inc();
  let decision: Decision;
  try {
    decision = await pool.scheduler.pick(request, {
      signal,
      trustHeaders: rt.trusts(req),
      ...(classification === undefined ? {} : { classification }),
      trace: rt.trace,
    });
  } catch (err) {
    if (signal.aborted) {
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
    pm.scheduling.dec();
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
