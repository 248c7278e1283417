/*
 * llm-d-router's own sample EndpointPickerConfigs (deploy/config, test/integration/epp/testdata,
 * test/perf/config), copied unchanged into packages/adapters-envoy/src/parity/fixtures with their
 * source path and commit. Each one starts `switchyard-epp` and `switchyard-gateway` through their
 * CLI entry points and routes one request to a model server on loopback; the samples that still
 * need something Switchyard lacks are listed in NOT_YET with the error they fail with, so closing
 * a gap (or opening one) fails this test until the list is updated.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@switchyard/core/testing';
import { runGatewayCli } from '@switchyard/express';
import { reqHeaders } from '../packages/adapters-envoy/src/test-support/wire-helpers.js';
import { startEppCli, throughEpp as throughEppCli, type EppAnswer } from './support/both-clis.js';
import { CHAT_COMPLETION_REPLY, startModelServerStub, type ModelServerStub } from '../packages/adapters-express/src/test-support/model-server-stub.js';

const DIR = new URL('../packages/adapters-envoy/src/parity/fixtures/', import.meta.url);
const FIXTURES = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();

/** Samples that do not start yet, with what stands in the way (matched against the error). */
const NOT_YET: Readonly<Record<string, RegExp>> = {
  // Types added to llm-d-router after the catalogue's snapshot (ebab687).
  'thunderagent-config.yaml': /thunder-agent/,
};

/** Samples whose only profile keeps endpoints of one role: unlabelled servers are refused (429), as llm-d refuses them. */
const ROLE_ONLY = new Set(['sim-epp-encode-config.yaml', 'sim-epp-prefill-config.yaml']);

let upstream: ModelServerStub;
let address: string;
const received: string[] = [];

beforeAll(async () => {
  // A model server: completions answered with a tiny JSON body, /metrics idle, two models.
  upstream = await startModelServerStub({
    models: [{ id: 'm', object: 'model', owned_by: 'vllm', parent: null }, { id: 'lora-1', object: 'model', owned_by: 'vllm', parent: 'm' }],
    inference: (req, res) => {
      received.push(`${req.method ?? ''} ${req.url ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(CHAT_COMPLETION_REPLY);
    },
  });
  address = upstream.address;
});

afterAll(async () => {
  await upstream.close();
});

const CHAT = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello from a sample config' }], max_tokens: 8 });

/** Starts switchyard-epp with `file`, sends one chat request through an emulated Envoy; returns the destination header or the status. */
function throughEpp(file: string): Promise<EppAnswer> {
  return throughEppCli(file, address, { path: '/v1/chat/completions', body: CHAT });
}

/** Starts switchyard-gateway with `file` and posts one chat request; returns the HTTP status. */
async function throughGateway(file: string): Promise<number> {
  const r = await runGatewayCli(['--config', file, '--endpoints', address, '--host', '127.0.0.1', '--port', '0', '--log-level', 'silent'], { out: () => undefined, err: () => undefined });
  if (r.kind !== 'running') throw new Error(`switchyard-gateway exited with ${r.code}`);
  try {
    const res = await fetch(`${r.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAT });
    await res.arrayBuffer();
    return res.status;
  } finally {
    await r.gateway.close();
  }
}

describe("llm-d-router's sample configs", () => {
  it('has the fixtures, each naming its source', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(27);
    for (const f of FIXTURES) expect(readFileSync(new URL(f, DIR), 'utf8')).toMatch(/^# Source: llm-d\/llm-d-router \S+ at [0-9a-f]{40}\n/);
  });

  it.each(FIXTURES.filter((f) => NOT_YET[f] === undefined))('%s starts both CLIs unchanged and routes a request', async (name) => {
    const file = fileURLToPath(new URL(name, DIR));
    const viaEpp = await throughEpp(file);
    const viaGateway = await throughGateway(file);
    if (ROLE_ONLY.has(name)) {
      expect(viaEpp.status).toBe(429);
      expect(viaGateway).toBe(429);
      return;
    }
    expect(viaEpp.destination).toBe(address);
    expect(viaGateway).toBe(200);
  });

  it("epp-config.yaml's models-responder answers GET /v1/models through switchyard-epp from the endpoints' lists", async () => {
    const file = fileURLToPath(new URL('epp-config.yaml', DIR));
    const { envoy, close } = await startEppCli(['--config', file, '--endpoints', address]);
    try {
      // The models source polls every endpoint from startup; until one answered, the reply is 503.
      const reply = await waitFor(async () => {
        const s = envoy.open();
        s.send(reqHeaders({ ':method': 'GET', ':path': '/v1/models' }, true));
        const [r] = await s.waitFor(1);
        s.cancel();
        await s.ended;
        return r?.immediate_response?.status.code === 200 ? r.immediate_response : undefined;
      }, { what: 'a 200 from models-responder' });
      expect(JSON.parse(Buffer.from(reply.body ?? '').toString('utf8'))).toEqual({ object: 'list', data: [{ id: 'lora-1', object: 'model', owned_by: 'vllm', parent: 'm' }, { id: 'm', object: 'model', owned_by: 'vllm', parent: null }] });
    } finally {
      await close();
    }
  });

  it.each(Object.entries(NOT_YET))('%s does not start yet, for the recorded reason', async (name, reason) => {
    const file = fileURLToPath(new URL(name, DIR));
    await expect(throughEpp(file)).rejects.toThrow(reason);
  });
});
