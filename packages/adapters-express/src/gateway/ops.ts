import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { SwitchyardError } from '@switchyard/core';
import type { Endpoint } from '@switchyard/core';
import { mergeExpositions } from '../metrics/merge.js';
import type { ModelInfo } from '../models/router.js';
import { sendError, sendJson } from './respond.js';
import type { GatewayRuntime } from './runtime.js';

/**
 * The operational routes the gateway answers itself (GET or HEAD).
 * @public
 */
export const OPERATIONAL_PATHS = ['/healthz', '/readyz', '/metrics', '/v1/models'] as const;

/** How long `/v1/models` waits for each endpoint when relaying their own model lists. */
const MODELS_TIMEOUT_MS = 2000;

/**
 * Answers an operational route. `/healthz`: the process serves requests. `/readyz`: not shutting
 * down and at least one pool is ready (its `ready()`, else it has an endpoint). `/metrics`: every registry in Prometheus
 * text format. `/v1/models`: the model registry, or the union of the endpoints' own lists.
 * @returns the status written
 * @public
 */
export async function handleOperational(rt: GatewayRuntime, path: string, res: ServerResponse): Promise<number> {
  switch (path) {
    case '/healthz':
      return sendJson(res, 200, { status: 'ok' });
    case '/readyz':
      return readiness(rt, res);
    case '/metrics':
      return metricsText(rt, res);
    default:
      return models(rt, res);
  }
}

function readiness(rt: GatewayRuntime, res: ServerResponse): number {
  const pools: Record<string, number | null> = {};
  let ready = false;
  for (const pool of rt.router.pools()) {
    const size = pool.endpoints?.size;
    pools[pool.name] = size ?? null;
    if (pool.ready !== undefined ? pool.ready() : size === undefined || size > 0) ready = true;
  }
  if (rt.tracker.shuttingDown) return sendJson(res, 503, { status: 'shutting-down', pools });
  return sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'no-endpoints', pools });
}

async function metricsText(rt: GatewayRuntime, res: ServerResponse): Promise<number> {
  const texts = await Promise.all(rt.registries.map((r) => r.metrics()));
  const body = texts.length === 1 ? (texts[0] ?? '') : mergeExpositions(texts);
  if (res.headersSent || res.destroyed) return 0;
  const first = rt.registries[0];
  res.writeHead(200, { 'content-type': first?.contentType ?? 'text/plain; version=0.0.4; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  return 200;
}

async function models(rt: GatewayRuntime, res: ServerResponse): Promise<number> {
  const listed = rt.router.listModels();
  if (listed !== undefined) return sendJson(res, 200, { object: 'list', data: listed });
  const endpoints = rt.router.pools().flatMap((p) => p.endpoints?.list() ?? []);
  const data = await relayModels(rt.dispatcher, endpoints);
  if (data === undefined) return sendError(res, new SwitchyardError('REJECTED_NO_ENDPOINTS', 'no endpoint answered GET /v1/models'));
  return sendJson(res, 200, { object: 'list', data });
}

/**
 * Asks every endpoint for its `/v1/models` and returns the union by id (first seen wins), or
 * undefined when none answered.
 * @public
 */
export async function relayModels(dispatcher: Dispatcher, endpoints: readonly Endpoint[]): Promise<ModelInfo[] | undefined> {
  const answers = await Promise.all(endpoints.map((e) => fetchModels(dispatcher, e)));
  const seen = new Map<string, ModelInfo>();
  let answered = false;
  for (const list of answers) {
    if (list === undefined) continue;
    answered = true;
    for (const m of list) if (!seen.has(m.id)) seen.set(m.id, m);
  }
  return answered ? [...seen.values()] : undefined;
}

async function fetchModels(dispatcher: Dispatcher, endpoint: Endpoint): Promise<ModelInfo[] | undefined> {
  try {
    const r = await dispatcher.request({
      origin: `http://${endpoint.address}`,
      path: '/v1/models',
      method: 'GET',
      headersTimeout: MODELS_TIMEOUT_MS,
      bodyTimeout: MODELS_TIMEOUT_MS,
    });
    const json: unknown = await r.body.json();
    if (r.statusCode !== 200 || typeof json !== 'object' || json === null) return undefined;
    const data = (json as { data?: unknown }).data;
    if (!Array.isArray(data)) return undefined;
    return data.filter((m): m is ModelInfo => typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'string');
  } catch {
    return undefined;
  }
}
