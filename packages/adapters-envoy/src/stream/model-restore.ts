/**
 * Restores the client's model name in response bytes after a model rewrite: every
 * `"model":"<target>"` (with or without a space after the colon) becomes `"model":"<client>"`.
 * Works on bytes, so a chunk that ends inside a multi-byte character is never corrupted.
 * A pattern split across two streamed chunks is left as is (the bytes are echoed as received).
 * @public
 */
export class ModelNameRestorer {
  readonly #patterns: readonly Buffer[];
  readonly #replacements: readonly Buffer[];

  /**
   * @param target - model name the request was rewritten to (what the model server echoes)
   * @param client - model name the client asked for
   */
  constructor(target: string, client: string) {
    const t = JSON.stringify(target);
    const c = JSON.stringify(client);
    this.#patterns = [Buffer.from(`"model":${t}`), Buffer.from(`"model": ${t}`)];
    this.#replacements = [Buffer.from(`"model":${c}`), Buffer.from(`"model": ${c}`)];
  }

  /** Returns `chunk` with every occurrence replaced; the same object when nothing matched. */
  apply(chunk: Uint8Array): Uint8Array {
    let out: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let changed = false;
    for (let i = 0; i < this.#patterns.length; i++) {
      const pattern = this.#patterns[i];
      const replacement = this.#replacements[i];
      if (pattern === undefined || replacement === undefined) continue;
      if (out.indexOf(pattern) === -1) continue;
      out = replaceAll(out, pattern, replacement);
      changed = true;
    }
    return changed ? out : chunk;
  }
}

function replaceAll(input: Buffer, pattern: Buffer, replacement: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = input.indexOf(pattern, from); at !== -1; at = input.indexOf(pattern, from)) {
    parts.push(input.subarray(from, at), replacement);
    from = at + pattern.length;
  }
  parts.push(input.subarray(from));
  return Buffer.concat(parts);
}
