import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Counter, Registry } from 'prom-client';
import { EndpointPool, parsePrometheusText } from '@switchyard/core';
import { EndpointRotation } from '@switchyard/express';
import { FakeScheduler } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { deadAddress, get, post, startGateway, type RunningGateway } from '../test-support/harness.js';

const promtool = spawnSync('sh', ['-c', 'command -v promtool']).stdout.toString().trim();

describe('/metrics exposition', () => {
  let up: FakeUpstream;
  let gw: RunningGateway;
  let rotation: EndpointRotation;

  beforeAll(async () => {
    up = await startFakeUpstream('u');
    const source = new EndpointPool();
    source.add({ address: up.address });
    source.add({ address: await deadAddress() });
    rotation = new EndpointRotation({ source, failureThreshold: 1, probeAfterMs: 0 });
    // Two extra registries with an overlapping family, as several pools' components produce.
    const extra = [1, 2].map((i) => {
      const r = new Registry();
      new Counter({ name: 'llm_d_epp_flow_control_requests_total', help: 'Flow-control outcomes.', labelNames: ['inference_pool'], registers: [r] }).labels(`pool-${i}`).inc(i);
      return r;
    });
    gw = await startGateway({ scheduler: new FakeScheduler(rotation.pool), endpoints: rotation.pool, rotation, metricsRegistries: extra });
    for (let i = 0; i < 4; i++) await post(`${gw.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
    await post(`${gw.url}/v1/chat/completions`, '{bad');
  });
  afterAll(async () => {
    await gw.close();
    rotation.close();
    await up.close();
  });

  it(promtool === '' ? 'parses with the Prometheus text parser (promtool absent)' : 'passes `promtool check metrics`', async () => {
    const text = (await get(`${gw.url}/metrics`)).text;
    expect(text).toContain('llm_d_epp_flow_control_requests_total{inference_pool="pool-2"} 2');
    expect(text).toContain('switchyard_gateway_circuit_transitions_total{pool="default",state="open"} 1');
    const series = text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).map((l) => l.slice(0, l.lastIndexOf(' ')));
    expect(new Set(series).size).toBe(series.length);
    if (promtool === '') {
      expect(parsePrometheusText(text).length).toBeGreaterThan(10);
      return;
    }
    const r = spawnSync(promtool, ['check', 'metrics'], { input: text });
    const findings = `${r.stdout.toString()}${r.stderr.toString()}`.split('\n').filter((l) => l.trim() !== '');
    // llm-d's mandated `llm_d_` prefix contains the token `d`, which promtool's lint reads as the
    // unit "days"; that is the only finding allowed (exit 3 = lint findings, 1 = invalid format).
    const unexpected = findings.filter((l) => !/^llm_d_\w+ metric names should not contain abbreviated units$/.test(l));
    expect(unexpected).toEqual([]);
    expect(r.status).toBe(findings.length === 0 ? 0 : 3);
  });
});
