import { CONSOLE_SCRIPT } from './page-script.js';
import { CONSOLE_CSS } from './page-style.js';

/** The console page: one self-contained HTML document (inline style and script). */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Switchyard console</title><style>${CONSOLE_CSS}</style></head>
<body><header><h1><span id="live"></span>Switchyard console</h1><span class="meta" id="server"></span><span class="meta" id="updated">loading…</span><button id="pause" type="button">Pause</button></header>
<main><section id="detail"></section><section id="pools"><h2>Pools and endpoints</h2></section><section id="flow"><h2>Flow control</h2></section>
<section id="prefix"><h2>Prefix index</h2></section><section id="decisions"><h2>Recent decisions</h2></section></main>
<script>${CONSOLE_SCRIPT}</script></body></html>
`;
