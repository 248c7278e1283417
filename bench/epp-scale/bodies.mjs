// Chat bodies of about `bytes` each (≈4 bytes per token: 400 KB ≈ 100K tokens), shaped like long
// agentic prompts: 8 conversations whose long system prompt and history are shared, each body
// ending in its own user turn, so the prefix index sees both shared and new blocks.
const WORDS = 'the a gateway routes tokens cache block prefix endpoint queue model server request stream score pick metrics fleet pod decode prefill'.split(' ');

function text(seed, bytes) {
  let x = seed * 2654435761 >>> 0;
  const parts = [];
  let size = 0;
  while (size < bytes) {
    x = (x * 1103515245 + 12345) >>> 0;
    const w = WORDS[x % WORDS.length];
    parts.push(w);
    size += w.length + 1;
  }
  return parts.join(' ').slice(0, bytes);
}

/** `count` bodies of ≈`bytes` bytes (UTF-8 JSON). */
export function chatBodies(count, bytes) {
  const shared = Array.from({ length: 8 }, (_, c) => text(c + 1, Math.floor(bytes * 0.8)));
  return Array.from({ length: count }, (_, i) => {
    const system = shared[i % 8];
    const user = text(1000 + i, bytes - system.length - 200);
    return Buffer.from(JSON.stringify({ model: 'meta-llama/Llama-3.1-8B-Instruct', stream: true, max_tokens: 256, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] }));
  });
}
