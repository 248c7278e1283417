// Attributes a V8 CPU profile's samples to the stages of an EPP decision by the source file of
// the sampled function (through the bundles' source maps, so run with --enable-source-maps).
// Builtins and native functions (JSON.parse, Buffer copies) have no file: they count for the
// nearest caller that has one. Node's own I/O code that every stage shares (sockets, streams,
// timers) is reported as such rather than guessed.
import { findSourceMap } from 'node:module';

/** Stage of one source path (original TypeScript path when a source map knows it). */
function stageOf(path) {
  if (path.includes('/adapters-envoy/src/codec/') || path.includes('/adapters-envoy/src/wire/')) return 'codec';
  if (path.includes('/adapters-envoy/src/stream/')) return 'ext_proc stream';
  if (path.includes('/adapters-envoy/src/grpc/') || path.includes('@grpc/grpc-js') || path.includes('internal/http2')) return 'transport';
  if (path.includes('/prefix-index/src/hashing/') || path.includes('/prefix-index/src/tokenizer/')) return 'hashing';
  if (path.includes('/core/src/request/') || path.includes('/core/src/parsers/')) return 'parse';
  if (path.includes('/core/src/model-metrics/') || path.includes('node:_http_') || path.includes('node:http')) return 'scraping';
  if (path.includes('/prefix-index/') || path.includes('/flow-control/') || path.includes('/core/src/')) return 'scheduling';
  if (path.startsWith('node:')) return 'node I/O, timers (shared)';
  return 'other';
}

const cache = new Map();
function resolve(frame) {
  const { url, lineNumber, columnNumber } = frame;
  if (url === '') return undefined;
  const key = `${url}:${lineNumber}:${columnNumber}`;
  let stage = cache.get(key);
  if (stage === undefined) {
    let path = url;
    const map = url.startsWith('file:') ? findSourceMap(url) ?? findSourceMap(new URL(url).pathname) : undefined;
    const entry = map?.findEntry(lineNumber, columnNumber);
    if (entry?.originalSource !== undefined) path = entry.originalSource;
    stage = stageOf(path);
    cache.set(key, stage);
  }
  return stage;
}

/** Share of profiled (non-idle) time per stage, and the total sampled ms. */
export function splitProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOfNode = new Map();
  const nodeStage = (id) => {
    if (stageOfNode.has(id)) return stageOfNode.get(id);
    const n = byId.get(id);
    const name = n.callFrame.functionName;
    let stage;
    if (name === '(garbage collector)') stage = 'GC';
    else if (name === '(idle)') stage = 'idle';
    else if (name === '(program)') stage = 'VM (program)';
    else if (name === '(root)') stage = 'other';
    else stage = resolve(n.callFrame) ?? (parent.has(id) ? nodeStage(parent.get(id)) : 'other');
    stageOfNode.set(id, stage);
    return stage;
  };
  const counts = {};
  const self = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const stage = nodeStage(profile.samples[i]);
    const ms = (deltas[i] ?? 0) / 1000;
    counts[stage] = (counts[stage] ?? 0) + ms;
    if (stage === 'idle') continue;
    const f = byId.get(profile.samples[i]).callFrame;
    const key = `${f.functionName || '(anonymous)'} (${f.url === '' ? 'native' : f.url.replace(/^.*\/(packages|node_modules)\//, '')}) [${stage}]`;
    self.set(key, (self.get(key) ?? 0) + ms);
  }
  delete counts.idle;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => [k, v / total]);
  return { totalMs: total, shares: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / total])), top };
}
