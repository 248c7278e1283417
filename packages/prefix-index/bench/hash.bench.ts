/*
 * Hashing an 800 KB prompt (≈200K estimate tokens) into 64-token blocks, against copying the same
 * bytes with Buffer.from in the same run.
 * Run: npx vitest bench --run packages/prefix-index/bench/hash.bench.ts
 */
import { bench, describe } from 'vitest';
import type { PromptView } from '@switchyard/core';
import { createPrefixHasher, encodePromptBytes } from '@switchyard/prefix-index';
import { prng, timeMs, type Timing } from './stats.js';

const hasher = createPrefixHasher();
const rand = prng(1);
const words = ['the', 'agent', 'calls', 'tool', 'with', 'arguments', 'result', 'file', 'diff', 'context', '{"path":', '"src/main.ts"}', 'function', 'return'];
let text = '';
while (text.length < 800 * 1024) text += `${words[Math.floor(rand() * words.length)] ?? ''} `;
text = text.slice(0, 800 * 1024);
const chat: PromptView = {
  kind: 'chat',
  toolsJson: '[{"type":"function","function":{"name":"read_file"}}]',
  messages: Array.from({ length: 40 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: text.slice(i * 20480, (i + 1) * 20480) })),
};
const bytes = encodePromptBytes({ kind: 'text', texts: [text] })[0] as Uint8Array;
const root = hasher.rootKey('meta-llama/Llama-3.1-8B-Instruct');
const opts = { blockSizeTokens: 64 };

const copy = timeMs(() => Buffer.from(bytes), 400);
const hash = timeMs(() => hasher.chainBytes(bytes, root, opts), 400);
const full = timeMs(() => hasher.hashPrompts(encodePromptBytes(chat), 'meta-llama/Llama-3.1-8B-Instruct', undefined, opts), 200);
const gbps = (ms: number): string => (bytes.byteLength / (ms / 1000) / 1e9).toFixed(2);
const show = (t: Timing): string => `median ${t.median.toFixed(3)} ms (${gbps(t.median)} GB/s), min ${t.min.toFixed(3)} ms (${gbps(t.min)} GB/s)`;
console.log(
  `[hash] ${bytes.byteLength} bytes, ${Math.ceil(bytes.byteLength / 256)} blocks of 64 tokens\n` +
    `  Buffer.from copy: ${show(copy)}\n  chained hash:     ${show(hash)}; ×copy median ${(hash.median / copy.median).toFixed(1)}, min ${(hash.min / copy.min).toFixed(1)}\n` +
    `  encode chat + hash: ${show(full)}`,
);

describe('800 KB prompt', () => {
  bench('Buffer.from copy (baseline)', () => {
    Buffer.from(bytes);
  });
  bench('chained block hash, 64-token blocks (pre-encoded bytes)', () => {
    hasher.chainBytes(bytes, root, opts);
  });
  bench('encode 40-message chat + hash', () => {
    hasher.hashPrompts(encodePromptBytes(chat), 'meta-llama/Llama-3.1-8B-Instruct', undefined, opts);
  });
});
