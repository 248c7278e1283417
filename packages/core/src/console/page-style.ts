/** The console's stylesheet (inline: the page loads nothing from anywhere else). */
export const CONSOLE_CSS = `
:root{--bg:#f6f7f9;--fg:#1d2330;--mut:#5d6677;--line:#dde1e8;--card:#fff;--ok:#1f8a4c;--warn:#b7791f;--bad:#c53030;--acc:#2b6cb0}
*{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
header{display:flex;gap:16px;align-items:center;padding:10px 20px;background:#1d2330;color:#fff;position:sticky;top:0;z-index:2}
header h1{font-size:17px;margin:0;font-weight:600}header .meta{color:#c5cbd6;font-size:13px}
header button{margin-left:auto;background:#2d3648;color:#fff;border:1px solid #4a5568;border-radius:4px;padding:4px 10px;cursor:pointer}
#live{display:inline-block;width:9px;height:9px;border-radius:50%;background:var(--ok);margin-right:6px}#live.off{background:var(--bad)}
main{padding:16px 20px;display:grid;gap:16px}
section{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:12px 14px;overflow-x:auto}
h2{font-size:15px;margin:0 0 8px}h3{font-size:13px;margin:10px 0 4px;color:var(--mut)}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top;white-space:nowrap}
th{color:var(--mut);font-weight:600;background:#fafbfc}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:0 6px;border-radius:9px;font-size:12px;border:1px solid currentColor}
.healthy,.success{color:var(--ok)}.stale,.pending,.no-metrics,.cancelled{color:var(--warn)}.rotated-out,.error,.rejected{color:var(--bad)}
.bar{display:inline-block;width:70px;height:8px;background:#e2e8f0;border-radius:4px;vertical-align:middle;margin-right:6px;overflow:hidden}.bar i{display:block;height:100%;background:var(--acc)}
.labels{color:var(--mut);font-size:12px;white-space:normal;max-width:360px}.mut{color:var(--mut)}
a{color:var(--acc)}#detail{border-color:var(--acc)}#detail:empty{display:none}
.picked{font-weight:700;background:#ebf8ff}.removed{color:var(--bad);text-decoration:line-through}
.kv{display:flex;gap:18px;flex-wrap:wrap;margin-bottom:6px}.kv div b{display:block;font-size:18px}
`;
