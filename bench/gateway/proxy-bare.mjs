// Floor reference: a bare node:http server that reads and JSON-parses the body and forwards it with
// undici's dispatch API, round-robin, no scheduling, metrics or error handling worth the name.
//   node proxy-bare.mjs <port> <upstream,upstream>
import { createServer } from 'node:http';
import { Agent } from 'undici';
const port = Number(process.argv[2]);
const ups = process.argv[3].split(',');
const agent = new Agent({ connections: 128 });
let n = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    JSON.parse(body.toString());
    const target = ups[n++ % ups.length];
    let resume;
    agent.dispatch({ origin: `http://${target}`, path: req.url, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body }, {
      onConnect() {}, onError(e) { res.destroy(e); },
      onHeaders(status, raw, resumeUpstream) { resume = resumeUpstream; const h = []; for (let i = 0; i < raw.length; i += 2) { const k = raw[i].toString('latin1').toLowerCase(); if (k !== 'connection' && k !== 'keep-alive') h.push(k, raw[i + 1].toString('latin1')); } res.writeHead(status, h); return true; },
      // A full client socket pauses the upstream until it drains or closes; a closed one is not
      // written to. (Returning res.write's result alone stalled the upstream connection for good
      // whenever autocannon closed its connections mid-response at the end of a round.)
      onData(c) {
        if (res.destroyed || res.write(c)) return true;
        res.once('drain', resume).once('close', resume);
        return false;
      },
      onComplete() { res.end(); },
    });
  });
});
server.keepAliveTimeout = 60000;
server.listen(port, '127.0.0.1', () => process.stdout.write('{"ready":true}\n'));
process.on('SIGINT', () => process.exit(0));
