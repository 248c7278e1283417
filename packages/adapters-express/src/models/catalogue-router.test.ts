import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEmitter } from 'eventemitter3';
import { EndpointPool } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import { CatalogueRouter, type ModelCatalogue } from './catalogue-router.js';
import { KnownModels, UNKNOWN_MODEL_LABEL } from './known-models.js';
import { createGatewayFromConfig } from '../config/from-config.js';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post, startGateway, type RunningGateway } from '../test-support/harness.js';

/** A catalogue set by hand, as the Kubernetes ConfigMap watch sets one. */
class ManualCatalogue extends EventEmitter<{ change: [] }> implements ModelCatalogue {
  #names: string[] = [];
  names(): readonly string[] {
    return this.#names;
  }
  set(names: string[]): void {
    this.#names = names;
    this.emit('change');
  }
}

describe('CatalogueRouter: one pool, the model names from a live catalogue', () => {
  let upstream: FakeUpstream;
  let gw: RunningGateway;
  const catalogue = new ManualCatalogue();
  let router: CatalogueRouter;

  beforeAll(async () => {
    upstream = await startFakeUpstream('vllm');
    const pool = new EndpointPool();
    pool.add({ address: upstream.address });
    router = new CatalogueRouter({ name: 'chat', scheduler: new FakeScheduler(pool), endpoints: pool }, catalogue, { created: 7 });
    gw = await startGateway({ models: router });
  });
  afterAll(async () => {
    router.close();
    await gw.close();
    await upstream.close();
  });

  const ask = (model: string): ReturnType<typeof post> => post(`${gw.url}/v1/completions`, { model, prompt: 'hello' });
  const listed = async (): Promise<unknown> => (await get(`${gw.url}/v1/models`)).json();

  it('forwards every name and relays /v1/models while the catalogue is empty', async () => {
    expect((await ask('anything')).status).toBe(200);
    expect(await listed()).toEqual({ object: 'list', data: [{ id: 'vllm-model', object: 'model', created: 0, owned_by: 'vllm' }] });
  });

  it('serves only the catalogue names once it has some, live', async () => {
    catalogue.set(['llama-3', 'sql-lora']);
    expect((await ask('sql-lora')).status).toBe(200);
    expect((await ask('llama-3')).status).toBe(200);
    const unknown = await ask('anything');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'model_not_found', type: 'invalid_request_error' } });
    expect(await listed()).toEqual({
      object: 'list',
      data: [
        { id: 'llama-3', object: 'model', created: 7, owned_by: 'chat' },
        { id: 'sql-lora', object: 'model', created: 7, owned_by: 'chat' },
      ],
    });
    catalogue.set(['llama-3']);
    expect((await ask('sql-lora')).status).toBe(404);
  });

  it('goes back to forwarding every name when the catalogue empties', async () => {
    catalogue.set([]);
    expect((await ask('anything')).status).toBe(200);
    expect(router.listModels()).toBeUndefined();
  });

  it('stops following the catalogue once closed', () => {
    const own = new ManualCatalogue();
    const pool = new EndpointPool();
    const r = new CatalogueRouter({ name: 'p', scheduler: new FakeScheduler(pool) }, own);
    own.set(['a']);
    expect(r.resolve('b')).toBeUndefined();
    r.close();
    own.set([]);
    expect(r.resolve('b')).toBeUndefined();
    expect(own.listenerCount('change')).toBe(0);
  });
});

describe('KnownModels.followCatalogue: metric labels follow the catalogue', () => {
  it('labels the names the catalogue holds now, and stops following on close', () => {
    const catalogue = new ManualCatalogue();
    const known = new KnownModels(['configured']);
    known.followCatalogue(catalogue);
    expect(known.label('sql-lora')).toBe(UNKNOWN_MODEL_LABEL);
    catalogue.set(['llama-3', 'sql-lora']);
    expect(known.label('sql-lora')).toBe('sql-lora');
    catalogue.set(['llama-3']);
    expect(known.label('sql-lora')).toBe(UNKNOWN_MODEL_LABEL);
    expect(known.label('configured')).toBe('configured');
    known.close();
    expect(catalogue.listenerCount('change')).toBe(0);
  });
});

describe('createGatewayFromConfig({ modelCatalogue })', () => {
  it('rejects a catalogue with gateway.pools, naming the field: the catalogue fills one pool', async () => {
    const config = 'gateway:\n  pools:\n  - name: p1\n    endpoints: ["127.0.0.1:1"]\n    models: [m1]\n';
    await expect(createGatewayFromConfig({ config, scrapeMetrics: false, modelCatalogue: new ManualCatalogue() })).rejects.toThrow(/config: gateway\.pools: a model catalogue .* fills one pool/);
  });
});
