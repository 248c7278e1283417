// Baseline: a Fastify app that parses the JSON body and forwards it with @fastify/reply-from,
// round-robin over the upstreams.  node proxy-fastify.mjs <port> <upstream,upstream>
import Fastify from 'fastify';
import replyFrom from '@fastify/reply-from';

const port = Number(process.argv[2]);
const upstreams = process.argv[3].split(',').map((a) => `http://${a}`);
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
await app.register(replyFrom, { undici: { connections: 128, pipelining: 1, keepAliveTimeout: 60_000 } });
let next = 0;
app.post('/v1/chat/completions', (request, reply) => {
  // request.body is the parsed JSON: the baseline pays for parsing as the gateway does.
  const target = upstreams[next++ % upstreams.length];
  return reply.from(`${target}/v1/chat/completions`, { body: request.body });
});
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.on('message', (m) => {
  if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.on('SIGINT', () => process.exit(0));
