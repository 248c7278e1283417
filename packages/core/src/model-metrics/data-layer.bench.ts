import { bench, describe } from 'vitest';
import { ENGINE_METRIC_MAPPINGS, extractEndpointMetrics, indexSamples, mappingMetricNames, parsePrometheusText, parseRequest } from '@switchyard/core';
import { vllmMetricsPage } from '../testing/index.js';

const page = vllmMetricsPage({ engines: 2 });
const wanted = mappingMetricNames(ENGINE_METRIC_MAPPINGS.vllm);
const filter = (name: string): boolean => wanted.has(name);
let sink = 0;

describe(`vLLM /metrics page (${page.length} bytes, 2 engines)`, () => {
  bench('baseline: split into lines', () => {
    sink += page.split('\n').length;
  }, { time: 400 });
  bench('parsePrometheusText (full)', () => {
    sink += parsePrometheusText(page).length;
  }, { time: 400 });
  bench('parsePrometheusText (filtered to the vLLM mapping) + extract', () => {
    sink += extractEndpointMetrics('vllm', indexSamples(parsePrometheusText(page, { filter })), 0).runningRequestsSize;
  }, { time: 400 });
});

const messages = Array.from({ length: 20 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `turn ${i}: ${'lorem ipsum dolor sit amet '.repeat(40)}` }));
const chatBody = new TextEncoder().encode(JSON.stringify({ model: 'meta-llama/Llama-3.1-8B-Instruct', stream: true, max_tokens: 256, messages }));
const decoder = new TextDecoder();

describe(`chat request (${chatBody.length} bytes, 20 messages)`, () => {
  bench('baseline: TextDecoder + JSON.parse', () => {
    sink += Object.keys(JSON.parse(decoder.decode(chatBody)) as object).length;
  }, { time: 400 });
  bench('parseRequest', () => {
    sink += parseRequest({ path: '/v1/chat/completions', headers: { 'x-request-id': 'r' }, body: chatBody }).byteSize;
  }, { time: 400 });
});

export { sink };
