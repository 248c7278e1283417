// Fast fake OpenAI-compatible upstreams for the gateway benchmark. Started as a child process:
//   node upstream.mjs <count>   → prints one JSON line {"ports":[...]} when listening.
// Each answers POST /v1/chat/completions with a fixed small completion (with usage), after
// reading the request body, and GET /metrics with a vLLM-style exposition so a scraping
// gateway sees an idle, healthy pod.
import { createServer } from 'node:http';

const count = Number(process.argv[2] ?? 2);
const answer = (model) =>
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 250, completion_tokens: 1, total_tokens: 251 },
  });
const metrics = [
  '# TYPE vllm:num_requests_waiting gauge',
  'vllm:num_requests_waiting{model_name="bench"} 0',
  '# TYPE vllm:num_requests_running gauge',
  'vllm:num_requests_running{model_name="bench"} 0',
  '# TYPE vllm:kv_cache_usage_perc gauge',
  'vllm:kv_cache_usage_perc{model_name="bench"} 0.1',
  '# TYPE vllm:cache_config_info gauge',
  'vllm:cache_config_info{block_size="16",num_gpu_blocks="10000"} 1',
  '',
].join('\n');
const models = JSON.stringify({ object: 'list', data: [{ id: 'bench', object: 'model', created: 0, owned_by: 'bench' }] });

const ports = [];
for (let i = 0; i < count; i++) {
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      const body = req.url === '/metrics' ? metrics : models;
      res.writeHead(200, { 'content-type': req.url === '/metrics' ? 'text/plain; version=0.0.4' : 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let model = 'bench';
      try {
        model = JSON.parse(Buffer.concat(chunks).toString()).model ?? model;
      } catch {}
      const body = answer(model);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  // Long enough that a proxy stopped while others are measured (run.mjs) finds its sockets open.
  server.keepAliveTimeout = 600_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  ports.push(server.address().port);
}
process.stdout.write(`${JSON.stringify({ ports })}\n`);
process.on('message', (m) => {
  if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
