// Child process of run.mjs with --workers N (N > 1): a node:cluster primary whose N workers each run
// epp.mjs (one switchyard-epp apiece) on one shared ext_proc port, the way `--workers` runs them. It
// answers run.mjs's IPC like epp.mjs does: a sample is the sum over the workers (CPU, decisions,
// scrapes, GC, heap), so "decisions per EPP CPU-second" counts every worker's CPU. The profile is
// taken on the first worker only (its split stands for the others: they run the same code).
// The workers share no state here (each scrapes every pod itself and keeps its own in-flight counts
// and prefix index), so this is the scheduling cost per added core without the shared-state sync.
import cluster from 'node:cluster';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.env.WORKERS ?? 2);
cluster.setupPrimary({ exec: join(here, 'epp.mjs'), execArgv: process.execArgv });
const workers = Array.from({ length: n }, () => cluster.fork(process.env));

let seq = 0;
const pending = new Map();
const ready = workers.map((w) => new Promise((resolve, reject) => {
  w.on('message', (m) => {
    if (m.ready) resolve(m);
    const p = pending.get(m.id);
    if (p !== undefined) { pending.delete(m.id); if (m.error) p.reject(new Error(m.error)); else p.resolve(m); }
  });
  w.once('exit', (code) => reject(new Error(`EPP worker exited with ${code}`)));
}));
const call = (w, m) => new Promise((resolve, reject) => { const id = ++seq; pending.set(id, { resolve, reject }); w.send({ ...m, id }); });

const SUMMED = ['cpuUs', 'scrapes', 'decisions', 'failures', 'gcMs', 'gcCount', 'gcMajor', 'cpuUsAfter', 'gcMsAfter', 'heapUsed', 'rss', 'arrayBuffers'];
process.on('message', async (m) => {
  try {
    if (m.cmd === 'sample') {
      const all = await Promise.all(workers.map((w) => call(w, m)));
      const sum = Object.fromEntries(SUMMED.map((k) => [k, all.reduce((a, s) => a + (s[k] ?? 0), 0)]));
      // The primary's own CPU (it only relays IPC and connections) is counted too.
      const c = process.cpuUsage();
      sum.cpuUs += c.user + c.system;
      sum.cpuUsAfter += c.user + c.system;
      process.send({ id: m.id, ...sum });
    } else if (m.cmd === 'profile-start' || m.cmd === 'profile-stop') {
      const reply = await call(workers[0], m);
      process.send({ ...reply, id: m.id });
    } else if (m.cmd === 'close') {
      await Promise.all(workers.map((w) => new Promise((r) => { w.once('exit', r); w.send({ cmd: 'close', id: 0 }); })));
      process.send({ id: m.id });
      process.exit(0);
    }
  } catch (error) {
    process.send({ id: m.id, error: String(error?.stack ?? error) });
  }
});
const [first] = await Promise.all(ready);
process.send({ ready: true, port: first.port, workers: n });
