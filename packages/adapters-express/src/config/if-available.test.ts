import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type Gateway } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { post } from '../test-support/harness.js';

const chat = { model: 'm1', messages: [{ role: 'system', content: 'a system prompt nobody has sent yet '.repeat(40) }, { role: 'user', content: 'hi' }] };
const document = (switchyard?: object): Record<string, unknown> => ({
  apiVersion: 'inference.networking.x-k8s.io/v1alpha1',
  kind: 'EndpointPickerConfig',
  ...(switchyard === undefined ? {} : { switchyard }),
});

describe('Prefer: if-available through the config file (switchyard.ifAvailable)', () => {
  let upstream: FakeUpstream;
  const open: Gateway[] = [];
  const start = async (config: Record<string, unknown>): Promise<string> => {
    const gw = await createGatewayFromConfig({ scrapeMetrics: false, endpoints: [upstream.address], config });
    open.push(gw);
    return (await gw.listen(0, '127.0.0.1')).url;
  };
  beforeAll(async () => {
    upstream = await startFakeUpstream('a');
  });
  afterAll(async () => {
    for (const g of open) await g.close();
    await upstream.close();
  });

  it('is ignored by default, so the answer says nothing about what is cached', async () => {
    const url = await start(document());
    expect((await post(`${url}/v1/chat/completions`, chat, { prefer: 'if-available' })).status).toBe(200);
  });

  it('answers 412 for an uncached prompt when the config turns on llm-d\'s shared behaviour', async () => {
    const url = await start(document({ ifAvailable: { mode: 'shared' } }));
    const answer = await post(`${url}/v1/chat/completions`, chat, { prefer: 'if-available' });
    expect(answer.status).toBe(412);
  });

  it('in own-history mode, a fairness id learns only what it sent itself', async () => {
    // Fairness ids from headers are trusted here, as own-history requires a trusted source.
    const url = await start({ ...document({ ifAvailable: { mode: 'own-history', maxHistory: 1000 } }), gateway: { trust: { classificationHeaders: true } } });
    const tenant = (id: string) => ({ 'x-gateway-inference-fairness-id': id });
    const send = async (id: string, prefer: boolean) => (await post(`${url}/v1/chat/completions`, chat, prefer ? { prefer: 'if-available', ...tenant(id) } : tenant(id))).status;
    expect(await send('tenant-a', true)).toBe(412); // nobody sent it yet
    expect(await send('tenant-a', false)).toBe(200); // tenant A sends it: now cached on the endpoint
    expect(await send('tenant-a', true)).toBe(200); // A may learn about its own prompt
    expect(await send('tenant-b', true)).toBe(412); // B learns nothing, though the prompt is cached
  });

  it('rejects a bad mode naming the field', async () => {
    await expect(start(document({ ifAvailable: { mode: 'sometimes' } }))).rejects.toThrow(/switchyard\.ifAvailable\.mode/);
  });
});
