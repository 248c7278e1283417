/**
 * The console's browser script: polls the snapshot API every second and renders it; a request id
 * link (`#decision=ID`) fetches that decision's full trace. Every value is escaped before it is
 * inserted, because tenants, models and labels come from clients and configs.
 */
export const CONSOLE_SCRIPT = `
(() => {
const base = location.pathname.replace(/\\/+$/, '');
const $ = (id) => document.getElementById(id);
const esc = (v) => String(v ?? '').replace(/[&<>"']/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'})[c]);
const num = (v, d = 0) => v === undefined || v === null ? '<span class="mut">–</span>' : Number(v).toFixed(d);
const pct = (v) => v === undefined || v === null ? '<span class="mut">–</span>' : '<span class="bar"><i style="width:' + Math.min(100, v * 100).toFixed(0) + '%"></i></span>' + (v * 100).toFixed(0) + '%';
const age = (ms) => ms === undefined || ms === null ? '<span class="mut">never</span>' : ms < 1000 ? ms.toFixed(0) + ' ms' : (ms / 1000).toFixed(1) + ' s';
const bytes = (b) => b < 1024 ? b + ' B' : b < 1048576 ? (b / 1024).toFixed(1) + ' KiB' : (b / 1048576).toFixed(1) + ' MiB';
const badge = (s) => '<span class="badge ' + esc(s) + '">' + esc(s) + '</span>';
const table = (head, rows) => '<table><thead><tr>' + head.map((h) => h.startsWith('#') ? '<th class="num">' + h.slice(1) + '</th>' : '<th>' + h + '</th>').join('') + '</tr></thead><tbody>' + rows.join('') + '</tbody></table>';
const row = (cells) => '<tr>' + cells.join('') + '</tr>';
const td = (v, cls) => '<td' + (cls ? ' class="' + cls + '"' : '') + '>' + v + '</td>';
let paused = false;
let failures = 0;

function pools(s) {
  if (s.pools.length === 0) return '<p class="mut">No pools.</p>';
  return s.pools.map((p) => {
    const up = p.endpoints.filter((e) => e.health === 'healthy').length;
    return '<h3>Pool ' + esc(p.name) + ' — ' + up + ' of ' + p.endpoints.length + ' healthy</h3>' + table(
      ['Endpoint', 'Address', 'Health', 'Role', '#Rank', 'Last scrape', '#Queue', '#Running', 'KV cache', 'LoRA adapters', '#In flight', 'Labels'],
      p.endpoints.map((e) => row([td('<b>' + esc(e.id) + '</b>'), td(esc(e.address)), td(badge(e.health)), td(esc(e.role ?? '–')), td(num(e.rank), 'num'),
        td(age(e.lastScrapeAgeMs)), td(num(e.waiting), 'num'), td(num(e.running), 'num'), td(pct(e.kvCacheUsage)),
        td(esc(e.activeLoras.join(', ') || '–') + (e.waitingLoras.length ? ' <span class="mut">(waiting: ' + esc(e.waitingLoras.join(', ')) + ')</span>' : '')),
        td(e.inFlightRequests + ' <span class="mut">/ ' + e.inFlightTokens + ' tok</span>', 'num'),
        td(esc(Object.entries(e.labels).map(([k, v]) => k + '=' + v).join(' ')), 'labels')])));
  }).join('');
}

function flowControl(s) {
  if (s.flowControl.length === 0) return '<p class="mut">Flow control is off (legacy admission): nothing is queued in the gateway.</p>';
  return s.flowControl.map((f) => '<h3>Pool ' + esc(f.pool) + '</h3><div class="kv">' +
    '<div>Queued<b>' + f.queuedRequests + '</b></div><div>In flight<b>' + f.inFlightRequests + '</b></div>' +
    '<div>Saturation<b>' + (f.saturation * 100).toFixed(0) + '%</b></div>' +
    '<div>Dispatched/s<b>' + f.dispatchRate.toFixed(1) + '</b></div><div>Rejected/s<b>' + f.rejectionRate.toFixed(1) + '</b></div>' +
    '<div class="mut">rates over the last ' + f.rateWindowSeconds.toFixed(0) + ' s</div></div>' +
    table(['#Priority', '#Queued', '#Bytes', '#Limit', '#Jain index', 'Fairness / ordering', 'Flows (tenant: queued, oldest wait)'],
      f.bands.map((b) => row([td(String(b.priority), 'num'), td(String(b.queuedRequests), 'num'), td(bytes(b.queuedBytes), 'num'), td(String(b.maxRequests), 'num'),
        td(b.jainIndex.toFixed(3), 'num'), td(esc(b.fairness + ' / ' + b.ordering)),
        td(b.flows.map((x) => '<b>' + esc(x.fairnessId) + '</b>: ' + x.queuedRequests + ', ' + age(x.oldestWaitMs)).join('<br>') || '<span class="mut">no flows</span>', 'labels')])))).join('');
}

function prefix(s) {
  if (s.prefixIndexes.length === 0) return '<p class="mut">No prefix index in the configuration.</p>';
  return table(['Pool', 'Kind', '#Entries', '#Blocks', '#Memory (est.)', '#Hit rate', '#Lookups', '#Evictions'],
    s.prefixIndexes.map((p) => row([td(esc(p.pool)), td(esc(p.kind)), td(String(p.entries), 'num'), td(String(p.blocks), 'num'), td(bytes(p.estimatedBytes), 'num'),
      td(p.hitRate === undefined || p.hitRate === null ? '–' : (p.hitRate * 100).toFixed(1) + '%', 'num'), td(String(p.lookups), 'num'), td(String(p.evictions), 'num')])));
}

function decisions(s) {
  if (s.decisions.length === 0) return '<p class="mut">No requests yet.</p>';
  return '<p class="mut">' + s.decisionsTotal + ' requests since start; newest ' + s.decisions.length + ' below.</p>' + table(
    ['Request id', 'Age', 'Pool', 'Model', 'Tenant', '#Priority', 'Endpoint', 'Fallbacks', 'Outcome', '#Schedule ms', '#Total ms'],
    s.decisions.map((d) => row([td('<a class="rid" href="#decision=' + encodeURIComponent(d.requestId) + '">' + esc(d.requestId) + '</a>'), td(age(s.now - d.at)), td(esc(d.pool)),
      td(esc(d.targetModel && d.targetModel !== d.model ? d.model + ' → ' + d.targetModel : d.model)), td(esc(d.fairnessId || '–')), td(String(d.priority), 'num'),
      td(esc(d.endpoint ?? '–')), td(esc(d.fallbacks.join(', ') || '–')), td(badge(d.outcome) + (d.error ? ' <span class="mut">' + esc(d.error) + '</span>' : '')),
      td(num(d.scheduleMs, 1), 'num'), td(num(d.totalMs, 1), 'num')])));
}

function profile(p) {
  const ids = p.candidates;
  const removedBy = {};
  for (const f of p.filters) for (const id of f.removed) removedBy[id] = f.name;
  const head = ['Endpoint', 'Filtered out by'].concat(p.scorers.map((s) => '#' + esc(s.name) + ' ×' + s.weight)).concat(['#Total']);
  const rows = ids.map((id) => '<tr class="' + (p.picked[0] === id ? 'picked' : '') + '">' + td((removedBy[id] ? '<span class="removed">' + esc(id) + '</span>' : esc(id)) + (p.picked.indexOf(id) >= 0 ? ' ' + badge(p.picked[0] === id ? 'picked' : 'fallback ' + p.picked.indexOf(id)) : '')) +
    td(esc(removedBy[id] ?? '')) + p.scorers.map((s) => td(id in s.scores ? s.scores[id].toFixed(3) + ' <span class="mut">→ ' + s.weighted[id].toFixed(2) + '</span>' : '–', 'num')).join('') +
    td(id in p.totals ? p.totals[id].toFixed(3) : '–', 'num') + '</tr>');
  return '<h3>Profile ' + esc(p.profile) + (p.error ? ' — failed: ' + esc(p.error) : '') + '</h3>' +
    '<p class="mut">Filters in order: ' + (p.filters.map((f) => esc(f.name) + ' (removed ' + f.removed.length + ')').join(' → ') || 'none') + '. Picked: ' + (p.picked.map(esc).join(', ') || 'nothing') + '.</p>' + table(head, rows);
}

async function showDecision() {
  const m = /^#decision=(.+)$/.exec(location.hash);
  const el = $('detail');
  if (!m) { el.innerHTML = ''; return; }
  const r = await fetch(base + '/api/decisions/' + m[1]);
  const d = await r.json();
  if (!r.ok) { el.innerHTML = '<h2>Decision</h2><p>' + esc(d.error) + '</p>'; return; }
  const t = d.trace;
  el.innerHTML = '<h2>Decision <span id="detail-id">' + esc(d.requestId) + '</span> <a href="#" class="mut">close</a></h2><div class="kv">' +
    '<div>Outcome<b>' + badge(d.outcome) + '</b></div><div>Endpoint<b>' + esc(d.endpoint ?? '–') + '</b></div><div>Fallbacks<b>' + esc(d.fallbacks.join(', ') || '–') + '</b></div>' +
    '<div>Model<b>' + esc(d.targetModel || d.model) + '</b></div><div>Tenant<b>' + esc(d.fairnessId || '–') + '</b></div><div>Priority<b>' + d.priority + '</b></div>' +
    (d.error ? '<div>Error<b>' + esc(d.error) + '</b></div>' : '') + '</div>' +
    (t ? '<p class="mut">Data producers: ' + (t.producers.map((p) => esc(p.name) + (p.error ? ' (error: ' + esc(p.error) + ')' : '')).join(', ') || 'none') + '</p>' + t.profiles.map(profile).join('') : '<p class="mut">No trace: the request was rejected before scheduling.</p>');
}

async function refresh() {
  if (paused) return;
  try {
    const r = await fetch(base + '/api/snapshot?limit=100');
    const s = await r.json();
    $('server').textContent = s.server;
    $('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
    $('pools').innerHTML = '<h2>Pools and endpoints</h2>' + pools(s);
    $('flow').innerHTML = '<h2>Flow control</h2>' + flowControl(s);
    $('prefix').innerHTML = '<h2>Prefix index</h2>' + prefix(s);
    $('decisions').innerHTML = '<h2>Recent decisions</h2>' + decisions(s);
    $('live').className = '';
    failures = 0;
  } catch (e) {
    failures++;
    $('live').className = 'off';
    $('updated').textContent = 'not updating (' + failures + ' failed polls)';
  }
}

$('pause').addEventListener('click', () => { paused = !paused; $('pause').textContent = paused ? 'Resume' : 'Pause'; });
window.addEventListener('hashchange', () => { void showDecision(); });
void refresh().then(showDecision);
setInterval(refresh, 1000);
})();
`;
