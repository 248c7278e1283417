import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, SwitchyardError, createDefaultRegistry, isModelsDataExtractor, isModelsDataSource, isResponder, loadConfig, parseModelsList } from '@switchyard/core';

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  servers = [];
});

/** A model server on loopback answering GET /v1/models with `ids()` (undefined: 500). */
async function modelServer(ids: () => string[] | undefined): Promise<string> {
  const server = createServer((req, res) => {
    const list = ids();
    if (req.url !== '/v1/models' || list === undefined) {
      res.writeHead(500).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: list.map((id) => ({ id, object: 'model', created: 1, owned_by: 'vllm', parent: id.includes('lora') ? 'base' : null })) }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const RESPONDER_ONLY = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: models-responder\n- type: queue-scorer\n';

describe('models-data-source, models-data-extractor and models-responder', () => {
  it('parses OpenAI models lists, skipping entries without an id', () => {
    expect(parseModelsList({ object: 'list', data: [{ id: 'a', owned_by: 'x', parent: null }, { object: 'model' }, 'junk', { id: 'b', created: 3 }] })).toEqual([
      { id: 'a', owned_by: 'x', parent: null },
      { id: 'b', created: 3 },
    ]);
    expect(parseModelsList({ data: 'nope' })).toBeUndefined();
    expect(parseModelsList(null)).toBeUndefined();
  });

  it('listing models-responder alone creates the source and extractor; GET /v1/models is the union of every endpoint', async () => {
    let second: string[] | undefined;
    const a = await modelServer(() => ['base', 'lora-a']);
    const b = await modelServer(() => second);
    const pool = new EndpointPool();
    pool.add({ id: 'pod-a', address: a });
    pool.add({ id: 'pod-b', address: b });
    const loaded = loadConfig(RESPONDER_ONLY, { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
    const source = loaded.plugins.get('models-data-source');
    const extractor = loaded.plugins.get('models-data-extractor');
    const responder = loaded.plugins.get('models-responder');
    if (source === undefined || !isModelsDataSource(source) || extractor === undefined || !isModelsDataExtractor(extractor) || responder === undefined || !isResponder(responder)) throw new Error('plugins missing');
    try {
      expect(source.attached).toBe(true);
      expect(source.urlOf(pool.get('pod-a')!)).toBe(`http://${a}/v1/models`);
      await source.pollOnce();
      expect(source.failures('pod-b')).toBe(1);
      const first = responder.respond({ method: 'GET', path: '/v1/models' }, pool.list());
      expect(first?.status).toBe(200);
      expect(JSON.parse(first!.body)).toEqual({ object: 'list', data: [{ id: 'base', object: 'model', created: 1, owned_by: 'vllm', parent: null }, { id: 'lora-a', object: 'model', created: 1, owned_by: 'vllm', parent: 'base' }] });
      second = ['base', 'lora-b'];
      await source.pollOnce();
      const both = responder.respond({ method: 'GET', path: '/v1/models/' }, pool.list());
      expect((JSON.parse(both!.body) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(['base', 'lora-a', 'lora-b']);
      // Anything else is declined and routed as usual.
      expect(responder.respond({ method: 'POST', path: '/v1/models' }, pool.list())).toBeUndefined();
      expect(responder.respond({ method: 'GET', path: '/v1/models/base' }, pool.list())).toBeUndefined();
      pool.remove('pod-b');
      expect(extractor.of({ id: 'pod-b' } as never)).toBeUndefined();
    } finally {
      for (const p of loaded.plugins.values()) await p.close?.();
    }
  });

  it('answers 503 until some endpoint reported its list', () => {
    const pool = new EndpointPool();
    pool.add({ id: 'x', address: '127.0.0.1:1' });
    const loaded = loadConfig(RESPONDER_ONLY, { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
    const responder = loaded.plugins.get('models-responder');
    if (responder === undefined || !isResponder(responder)) throw new Error('missing');
    try {
      let error: unknown;
      try {
        responder.respond({ method: 'GET', path: '/v1/models' }, pool.list());
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SwitchyardError);
      expect((error as SwitchyardError).code).toBe('REJECTED_NO_ENDPOINTS');
      expect((error as Error).message).toMatch(/no model data collected yet/);
    } finally {
      for (const p of loaded.plugins.values()) void p.close?.();
    }
  });

  it('a declared source keeps its settings, and wires an extractor the document does not list', () => {
    const pool = new EndpointPool();
    const yaml = `${RESPONDER_ONLY}- type: models-data-source\n  name: models\n  parameters: { path: /models, interval: 5s, scheme: https }\ndataLayer:\n  sources:\n  - pluginRef: models\n    extractors: []\n`;
    const loaded = loadConfig(yaml, { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
    const source = loaded.plugins.get('models');
    if (source === undefined || !isModelsDataSource(source)) throw new Error('missing');
    try {
      expect(loaded.plugins.has('models-data-source')).toBe(false);
      expect(loaded.plugins.has('models-data-extractor')).toBe(true);
      expect(source.attached).toBe(true);
      expect(source.urlOf({ address: '10.0.0.1:8000' } as never)).toBe('https://10.0.0.1:8000/models');
    } finally {
      for (const p of loaded.plugins.values()) void p.close?.();
    }
  });
});
