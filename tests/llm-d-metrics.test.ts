/*
 * llm-d's metric families against what Switchyard exposes. The catalogue's metric tables (copied
 * into packages/adapters-envoy/src/parity/fixtures/llm-d-metrics.md with their source) are parsed
 * at test time; `switchyard-epp` and `switchyard-gateway` are started through their CLI entry
 * points with a config that enables the plugins owning plugin metrics, a few requests go through
 * each (one streamed with usage, so TTFT, TPOT, ITL and NTPOT are observed), `/metrics` is
 * scraped, and every family is compared: type, label names and bucket boundaries. Families that
 * Switchyard deliberately does not expose, and those not implemented yet, are listed (with why)
 * in parity/metric-gaps.ts; both lists are kept exact, and the metrics part of docs/config.md's
 * compatibility table is generated from the result.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText, type MetricFamily } from '@switchyard/core';
import { waitFor } from '@switchyard/core/testing';
import { runGatewayCli } from '@switchyard/express';
import type { EnvoyEmulator, EmulatedStream } from '../packages/adapters-envoy/src/test-support/envoy-client.js';
import { chunkOf, kindOf, reqBody, reqHeaders, respBody, respHeaders } from '../packages/adapters-envoy/src/test-support/wire-helpers.js';
import { parseMetricCatalogue, type CatalogueMetric } from '../packages/adapters-envoy/src/test-support/metric-catalogue.js';
import { DELIBERATELY_ABSENT, EPP_ONLY, NOT_OBSERVED, NOT_YET } from '../packages/adapters-envoy/src/parity/metric-gaps.js';
import { startModelServerStub, type ModelServerStub } from '../packages/adapters-express/src/test-support/model-server-stub.js';
import { startEppCli } from './support/both-clis.js';

const CATALOGUE_FILE = new URL('../packages/adapters-envoy/src/parity/fixtures/llm-d-metrics.md', import.meta.url);
const CONFIG = fileURLToPath(new URL('./fixtures/llm-d-metrics-config.yaml', import.meta.url));
const CATALOGUE = parseMetricCatalogue(readFileSync(CATALOGUE_FILE, 'utf8'));

const USAGE = { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16, prompt_tokens_details: { cached_tokens: 8 } };
const JSON_REPLY = JSON.stringify({ id: 'x', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok ok ok ok' }, finish_reason: 'stop' }], usage: USAGE });
const delta = (content: string): string => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content } }] })}\n\n`;
/** A streamed reply in the chunks a model server sends: tokens, then the usage chunk and [DONE]. */
const SSE_CHUNKS = [delta('a'), delta('b'), delta('c'), `${delta('d')}data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'm', choices: [], usage: USAGE })}\n\ndata: [DONE]\n\n`];

const chat = (stream: boolean, withImage = false): string =>
  JSON.stringify({
    model: 'm',
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
    max_tokens: 8,
    messages: [{ role: 'user', content: withImage ? [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] : 'hello from the metrics parity test, long enough to fill a prefix block or two of the approximate index' }],
  });

/** An SLO every real TTFT and TPOT exceeds, for predicted-latency-producer's violation families. */
const SLO = { 'x-llm-d-slo-ttft-ms': '0.000001', 'x-llm-d-slo-tpot-ms': '0.000001' };

/** A request the model server fails (500), for `request_error_total{error_code="ModelServerError"}`. */
const FAILING = JSON.stringify({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'please fail' }] });

let upstream: ModelServerStub;
let address: string;
/** Polls of the model server's /metrics so far: one in five fails, one in five has no engine metrics. */
let metricsPolls = 0;

beforeAll(async () => {
  // A model server: /metrics in vLLM's names; chat answered as JSON, or as SSE when asked to stream.
  upstream = await startModelServerStub({
    metrics: () => {
      // For llm-d's data-layer error families: a failed poll, and a page no extractor can read.
      metricsPolls++;
      if (metricsPolls % 5 === 2) return { status: 503, body: '' };
      if (metricsPolls % 5 === 4) return 'process_cpu_seconds_total 1\n';
      return 'vllm:num_requests_waiting 1\nvllm:num_requests_running 2\nvllm:kv_cache_usage_perc 0.25\n';
    },
    inference: (_req, res, body) => {
      if (body === FAILING) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
        return;
      }
      if (body !== '' && (JSON.parse(body) as { stream?: boolean }).stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const rest = [...SSE_CHUNKS];
        const next = (): void => {
          const c = rest.shift();
          if (c === undefined) res.end();
          else res.write(c, () => setTimeout(next, 2));
        };
        next();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON_REPLY);
    },
  });
  address = upstream.address;
});

afterAll(async () => {
  await upstream.close();
});

/** Waits until the stream has a reply satisfying `done`. */
async function until(s: EmulatedStream, done: (kinds: string[]) => boolean): Promise<void> {
  await waitFor(() => done(s.replies.map(kindOf)) || undefined, { what: 'ext_proc replies' });
}

/** One request through the EPP as Envoy drives it, with the model server's reply played back. */
async function exchange(envoy: EnvoyEmulator, body: string, reply: { status?: string; contentType: string; chunks: readonly string[] }): Promise<void> {
  const s = envoy.open();
  s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json', 'x-request-id': `r-${Math.random()}`, ...SLO }));
  s.send(reqBody(body, true));
  await until(s, (k) => k.includes('immediate_response') || k.filter((x) => x === 'request_body').length > 0);
  if (!s.replies.map(kindOf).includes('immediate_response')) {
    s.send(respHeaders({ ':status': reply.status ?? '200', 'content-type': reply.contentType }));
    reply.chunks.forEach((c, i) => {
      s.send(respBody(c, i === reply.chunks.length - 1));
    });
    await until(s, () => s.replies.some((r) => r.response_body !== undefined && chunkOf(r).eos));
  }
  s.cancel();
  await s.ended;
}

async function scrape(url: string): Promise<MetricFamily[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
}

/** Waits until the pool gauges have a scrape of the model server, and a failed poll and a failed extract were counted. */
async function untilPolled(url: string): Promise<void> {
  const families = ['llm_d_epp_average_queue_size', 'llm_d_epp_datalayer_poll_errors_total', 'llm_d_epp_datalayer_extract_errors_total'];
  await waitFor(async () => {
    const got = await scrape(url);
    return families.every((name) => (got.find((f) => f.name === name)?.samples.length ?? 0) > 0) || undefined;
  }, { what: 'model-server metrics, a failed poll and a failed extract' });
}

async function eppExposition(): Promise<MetricFamily[]> {
  const { epp, envoy, close } = await startEppCli(['--config', CONFIG, '--endpoints', address, '--enable-grpc-stream-metrics']);
  try {
    // The pool gauges need one scrape of the model server's metrics.
    await untilPolled(`http://127.0.0.1:${epp.metricsServer?.port ?? 0}/metrics`);
    await exchange(envoy, chat(false), { contentType: 'application/json', chunks: [JSON_REPLY.slice(0, 40), JSON_REPLY.slice(40)] });
    await exchange(envoy, chat(true), { contentType: 'text/event-stream', chunks: SSE_CHUNKS });
    await exchange(envoy, chat(false, true), { contentType: 'application/json', chunks: [JSON_REPLY] });
    // The same image again: a hit in the endpoint's encoder cache.
    await exchange(envoy, chat(false, true), { contentType: 'application/json', chunks: [JSON_REPLY] });
    await exchange(envoy, FAILING, { status: '500', contentType: 'application/json', chunks: ['{"error":"boom"}'] });
    return await scrape(`http://127.0.0.1:${epp.metricsServer?.port ?? 0}/metrics`);
  } finally {
    await close();
  }
}

async function gatewayExposition(): Promise<MetricFamily[]> {
  const r = await runGatewayCli(['--config', CONFIG, '--endpoints', address, '--host', '127.0.0.1', '--port', '0', '--log-level', 'silent'], { out: () => undefined, err: () => undefined });
  if (r.kind !== 'running') throw new Error(`switchyard-gateway exited with ${r.code}`);
  try {
    await untilPolled(`${r.url}/metrics`);
    for (const body of [chat(false), chat(true), chat(false, true), chat(false, true), FAILING]) {
      const res = await fetch(`${r.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...SLO }, body });
      await res.arrayBuffer();
    }
    return await scrape(`${r.url}/metrics`);
  } finally {
    await r.gateway.close();
  }
}

interface Observed {
  readonly type: string;
  /** Label names over every sample (without `le`), sorted. */
  readonly labels: string[];
  /** Bucket bounds (without +Inf), sorted; empty for other types. */
  readonly buckets: number[];
  readonly samples: number;
}

function observe(families: readonly MetricFamily[]): Map<string, Observed> {
  const out = new Map<string, Observed>();
  for (const f of families) {
    const labels = new Set<string>();
    const buckets = new Set<number>();
    for (const s of f.samples) {
      for (const l of Object.keys(s.labels)) if (l !== 'le') labels.add(l);
      const le = s.labels.le;
      if (le !== undefined && le !== '+Inf') buckets.add(Number(le));
    }
    out.set(f.name, { type: f.type, labels: [...labels].sort(), buckets: [...buckets].sort((a, b) => a - b), samples: f.samples.length });
  }
  return out;
}

/** What differs between a catalogue family and the exposition (empty: matches). */
function differences(m: CatalogueMetric, got: Observed | undefined, unobservedOk = false): string[] {
  if (got === undefined) return ['missing'];
  const out: string[] = [];
  if (got.type !== m.type) out.push(`type ${got.type}, llm-d ${m.type}`);
  if (got.samples === 0) return NOT_OBSERVED[m.name] === undefined && !unobservedOk ? [...out, 'no samples (labels unchecked)'] : out;
  if (got.labels.join(',') !== m.labels.join(',')) out.push(`labels {${got.labels.join(',')}}, llm-d {${m.labels.join(',')}}`);
  if (m.type === 'histogram' && got.buckets.join(',') !== [...(m.buckets ?? [])].sort((a, b) => a - b).join(',')) out.push(`buckets [${got.buckets.join(',')}], llm-d [${(m.buckets ?? []).join(',')}]`);
  return out;
}

const DOC = new URL('../docs/config.md', import.meta.url);
const START = '<!-- llm-d-metrics:start -->';
const END = '<!-- llm-d-metrics:end -->';

function metricsTable(gateway: ReadonlyMap<string, Observed>): string {
  const rows = CATALOGUE.map((m) => {
    const absent = DELIBERATELY_ABSENT[m.name];
    const notYet = NOT_YET[m.name];
    const status = absent !== undefined ? 'deliberate departure' : notYet !== undefined ? 'not yet' : 'supported';
    const where = absent !== undefined || notYet !== undefined ? '' : EPP_ONLY[m.name] !== undefined || !gateway.has(m.name) ? 'EPP' : 'EPP, gateway';
    const note = absent ?? notYet ?? EPP_ONLY[m.name] ?? (m.twinOf === undefined ? '' : `deprecated twin of \`${m.twinOf}\``);
    return `| \`${m.name}\` | ${m.type} | ${status} | ${where} | ${note} |`;
  });
  return ['| llm-d metric | type | status | exposed by | notes |', '|---|---|---|---|---|', ...rows].join('\n');
}

describe("llm-d's metric families", () => {
  let epp: Map<string, Observed>;
  let gateway: Map<string, Observed>;

  beforeAll(async () => {
    epp = observe(await eppExposition());
    gateway = observe(await gatewayExposition());
  }, 60_000);

  it('parses the 137 names of the catalogue, 51 of them core llm_d_epp_*', () => {
    expect(new Set(CATALOGUE.map((m) => m.name)).size).toBe(137);
    expect(CATALOGUE.filter((m) => m.name.startsWith('llm_d_epp_') && ['4.1', '4.2', '4.3', '4.4', '4.5', '4.6'].includes(m.section))).toHaveLength(51);
    for (const name of [...Object.keys(DELIBERATELY_ABSENT), ...Object.keys(NOT_YET), ...Object.keys(EPP_ONLY), ...Object.keys(NOT_OBSERVED)]) {
      expect(CATALOGUE.some((m) => m.name === name), `${name} is listed but not in the catalogue`).toBe(true);
    }
  });

  it('the EPP exposes every family with llm-d type, labels and buckets, except the listed ones', () => {
    const mismatches: string[] = [];
    for (const m of CATALOGUE) {
      const got = epp.get(m.name);
      // A ratchet: a family listed as absent that appears, or as not yet matching that matches, must leave its list.
      if (DELIBERATELY_ABSENT[m.name] !== undefined) {
        if (got !== undefined) mismatches.push(`${m.name}: exposed, but listed as deliberately absent`);
        continue;
      }
      if (NOT_YET[m.name] !== undefined) {
        if (differences(m, got).length === 0) mismatches.push(`${m.name}: matches llm-d, but listed as not yet`);
        continue;
      }
      for (const d of differences(m, got)) mismatches.push(`${m.name}: ${d}`);
      if (got !== undefined && got.samples > 0 && NOT_OBSERVED[m.name] !== undefined) mismatches.push(`${m.name}: observed, but listed as not observed`);
    }
    expect(mismatches).toEqual([]);
  });

  it('the gateway exposes the same families where they apply', () => {
    const mismatches: string[] = [];
    for (const m of CATALOGUE) {
      if (DELIBERATELY_ABSENT[m.name] !== undefined || NOT_YET[m.name] !== undefined) continue;
      const got = gateway.get(m.name);
      if (EPP_ONLY[m.name] !== undefined) {
        if (got !== undefined) mismatches.push(`${m.name}: exposed by the gateway, but listed as EPP-only`);
        continue;
      }
      // The gateway samples plugin timings; a family the EPP observed had its labels checked there.
      for (const d of differences(m, got, (epp.get(m.name)?.samples ?? 0) > 0)) mismatches.push(`${m.name}: ${d}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('docs/config.md lists every metric with its status', () => {
    const doc = readFileSync(DOC, 'utf8');
    const table = metricsTable(gateway);
    const [before, rest] = doc.split(START) as [string, string | undefined];
    expect(rest, `docs/config.md has no ${START} marker`).toBeDefined();
    const after = (rest as string).slice((rest as string).indexOf(END));
    if (process.env['UPDATE_COMPAT_TABLE'] === '1') writeFileSync(DOC, `${before}${START}\n${table}\n${after}`);
    else expect((rest as string).slice(0, (rest as string).indexOf(END)).trim(), 'docs/config.md metrics table is stale (UPDATE_COMPAT_TABLE=1)').toBe(table);
  });
});
