import { connect, type Socket } from 'node:net';

/*
 * A minimal HTTP/1.1 keep-alive GET client for `/metrics` polling: one socket per URL, a request
 * encoded once per URL, the body read into one buffer per socket that is reused from poll to poll.
 * Polling 100 pods every 50 ms is 2,000 requests a second; `node:http`'s per-request machinery
 * (URL parsing, agent bookkeeping, header objects, a listener set per request) cost more than
 * reading the page. Only what a metrics endpoint sends is supported: a status line, headers, and
 * a body delimited by Content-Length, chunked encoding or the end of the connection.
 */

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** What one exchange is waiting for. */
interface Pending {
  readonly resolve: (body: Buffer) => void;
  readonly reject: (error: Error) => void;
}

/** The parsed target of a URL: where to connect and the request bytes. */
interface Target {
  readonly host: string;
  readonly port: number;
  readonly request: Buffer;
}

function targetOf(url: string): Target {
  const u = new URL(url);
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  const port = u.port === '' ? 80 : Number(u.port);
  const request = Buffer.from(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAccept: text/plain;version=0.0.4;q=1,*/*;q=0.1\r\nUser-Agent: switchyard-scraper\r\n\r\n`, 'latin1');
  return { host, port, request };
}

/** One keep-alive connection and the state of the exchange on it. */
class PageConnection {
  readonly #socket: Socket;
  readonly #maxBytes: number;
  #buffer: Buffer;
  #pending: Pending | undefined;
  /** Bytes of the response head collected so far (until the blank line). */
  #head = 0;
  #headDone = false;
  /** Body bytes written into the buffer. */
  #body = 0;
  /** Content-Length, -1 for chunked, -2 for "until the connection closes". */
  #length = 0;
  #keepAlive = true;
  /** Chunked decoding: bytes left in the current chunk, or -1 while reading a size line. */
  #chunkLeft = -1;
  #sizeLine = '';
  /** Chunked decoding: CRLF bytes still to skip after a chunk's data. */
  #skip = 0;
  #lastChunk = false;
  dead = false;

  constructor(target: Target, maxBytes: number, initialBytes: number) {
    this.#maxBytes = maxBytes;
    this.#buffer = Buffer.allocUnsafe(initialBytes);
    this.#socket = connect({ host: target.host, port: target.port, noDelay: true });
    this.#socket.on('data', (chunk: Buffer) => { this.#onData(chunk); });
    this.#socket.on('end', () => { this.#onEnd(); });
    this.#socket.on('error', (error) => { this.#fail(error); });
    this.#socket.on('close', () => { this.#fail(new Error('connection closed before the response ended')); });
  }

  get busy(): boolean {
    return this.#pending !== undefined;
  }

  /** Sends the request; resolves with the body, a view of this connection's buffer valid until its next exchange. */
  exchange(request: Buffer, signal: AbortSignal): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const onAbort = (): void => {
        this.#pending = undefined;
        this.destroy();
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      const done = (): void => { signal.removeEventListener('abort', onAbort); };
      this.#pending = {
        resolve: (body) => { done(); resolve(body); },
        reject: (error) => { done(); reject(error); },
      };
      this.#head = 0;
      this.#headDone = false;
      this.#body = 0;
      this.#chunkLeft = -1;
      this.#sizeLine = '';
      this.#skip = 0;
      this.#lastChunk = false;
      this.#socket.ref();
      this.#socket.write(request);
    });
  }

  destroy(): void {
    this.dead = true;
    this.#socket.destroy();
  }

  #fail(error: Error): void {
    this.dead = true;
    const p = this.#pending;
    this.#pending = undefined;
    p?.reject(error);
  }

  #finish(): void {
    const p = this.#pending;
    this.#pending = undefined;
    if (!this.#keepAlive) this.destroy();
    else this.#socket.unref();
    p?.resolve(this.#buffer.subarray(0, this.#body));
  }

  #onEnd(): void {
    if (this.#pending !== undefined && this.#headDone && this.#length === -2) this.#finish();
    this.dead = true;
  }

  /** Room for `n` more body bytes, growing the buffer (to at most maxBytes); false when over the limit. */
  #reserve(n: number): boolean {
    const need = this.#body + n;
    if (need > this.#maxBytes) {
      this.destroy();
      this.#fail(new Error(`response larger than ${this.#maxBytes} bytes`));
      return false;
    }
    if (need > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.#maxBytes, Math.max(need, 2 * this.#buffer.length)));
      this.#buffer.copy(grown, 0, 0, this.#body);
      this.#buffer = grown;
    }
    return true;
  }

  #onData(chunk: Buffer): void {
    if (this.#pending === undefined) {
      this.destroy(); // bytes nobody asked for: the connection is out of step
      return;
    }
    const data = chunk;
    if (!this.#headDone) {
      // The head is collected at the start of the buffer, then overwritten by the body.
      if (!this.#reserveHead(data.length)) return;
      data.copy(this.#buffer, this.#head);
      const from = Math.max(0, this.#head - 3);
      this.#head += data.length;
      const end = this.#buffer.subarray(0, this.#head).indexOf(CRLFCRLF, from);
      if (end === -1) return;
      const bodyStart = end + 4;
      if (!this.#readHead(this.#buffer.toString('latin1', 0, end))) return;
      if (this.#length === -1) {
        // Chunked (rare for metrics pages): decode what came with the head from a copy.
        this.#chunked(Buffer.from(this.#buffer.subarray(bodyStart, this.#head)));
        return;
      }
      // The body bytes that came with the head move to the start of the buffer, where the body goes.
      const extra = this.#head - bodyStart;
      this.#buffer.copyWithin(0, bodyStart, this.#head);
      this.#body = this.#length >= 0 ? Math.min(extra, this.#length) : extra;
      if (this.#length >= 0 && !this.#reserve(this.#length - this.#body)) return;
      if (this.#body === this.#length) this.#finish();
      return;
    }
    if (this.#length === -1) this.#chunked(data);
    else this.#plain(data);
  }

  #reserveHead(n: number): boolean {
    if (this.#head > 64 * 1024) {
      this.destroy();
      this.#fail(new Error('response head too large'));
      return false;
    }
    if (this.#head + n > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(this.#head + n);
      this.#buffer.copy(grown, 0, 0, this.#head);
      this.#buffer = grown;
    }
    return true;
  }

  /** Reads the status line and the framing headers; false (and the exchange failed) on anything but 200. */
  #readHead(head: string): boolean {
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
    if (status === null) {
      this.destroy();
      this.#fail(new Error('malformed HTTP response'));
      return false;
    }
    if (status[1] !== '200') {
      this.destroy();
      this.#fail(new Error(`HTTP ${status[1] ?? ''}`));
      return false;
    }
    const lower = head.toLowerCase();
    const length = /\r\ncontent-length:[ \t]*(\d+)/.exec(lower);
    this.#keepAlive = !/\r\nconnection:[ \t]*close/.test(lower) && !head.startsWith('HTTP/1.0');
    if (/\r\ntransfer-encoding:[^\r]*chunked/.test(lower)) this.#length = -1;
    else if (length !== null) this.#length = Number(length[1]);
    else {
      this.#length = -2;
      this.#keepAlive = false;
    }
    this.#headDone = true;
    this.#body = 0;
    return true;
  }

  #plain(data: Buffer): void {
    if (data.length === 0 || this.#pending === undefined) return;
    const take = this.#length === -2 ? data.length : Math.min(data.length, this.#length - this.#body);
    if (!this.#reserve(take)) return;
    data.copy(this.#buffer, this.#body, 0, take);
    this.#body += take;
    if (this.#length >= 0 && this.#body === this.#length) this.#finish();
  }

  #chunked(data: Buffer): void {
    let i = 0;
    while (i < data.length && this.#pending !== undefined) {
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, data.length - i);
        this.#skip -= n;
        i += n;
      } else if (this.#chunkLeft > 0) {
        const n = Math.min(this.#chunkLeft, data.length - i);
        if (!this.#reserve(n)) return;
        data.copy(this.#buffer, this.#body, i, i + n);
        this.#body += n;
        this.#chunkLeft -= n;
        i += n;
        if (this.#chunkLeft === 0) {
          this.#skip = 2;
          this.#chunkLeft = -1;
        }
      } else {
        // A size line (or, after the last chunk, the trailer section's lines) up to LF.
        const lf = data.indexOf(10, i);
        const end = lf === -1 ? data.length : lf;
        this.#sizeLine += data.toString('latin1', i, end);
        i = end;
        if (lf === -1) return;
        i++;
        const line = this.#sizeLine.trim();
        this.#sizeLine = '';
        if (this.#lastChunk) {
          if (line === '') this.#finish();
          continue;
        }
        const size = Number.parseInt(line.split(';')[0] ?? '', 16);
        if (!Number.isFinite(size) || size < 0) {
          this.destroy();
          this.#fail(new Error('malformed chunked body'));
          return;
        }
        if (size === 0) this.#lastChunk = true;
        else this.#chunkLeft = size;
      }
    }
  }
}

/**
 * Plain-HTTP page fetches over keep-alive connections, one per URL.
 * @internal
 */
export class Http1PageClient {
  readonly #targets = new Map<string, Target>();
  readonly #connections = new Map<string, PageConnection>();
  readonly #maxBytes: number;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** GETs `url`; resolves with the body of a 200 response (a view valid until the next fetch of `url`). */
  fetch(url: string, signal: AbortSignal): Promise<Buffer> {
    let target = this.#targets.get(url);
    if (target === undefined) {
      target = targetOf(url);
      this.#targets.set(url, target);
    }
    let conn = this.#connections.get(url);
    if (conn === undefined || conn.dead) {
      conn = new PageConnection(target, this.#maxBytes, 64 * 1024);
      this.#connections.set(url, conn);
    } else if (conn.busy) {
      // A second fetch of one URL at a time (the scraper never does this): its own connection.
      const extra = new PageConnection(target, this.#maxBytes, 16 * 1024);
      return extra.exchange(target.request, signal).then((body) => { extra.destroy(); return Buffer.from(body); });
    }
    return conn.exchange(target.request, signal);
  }

  /** Closes every connection. */
  close(): void {
    for (const c of this.#connections.values()) c.destroy();
    this.#connections.clear();
    this.#targets.clear();
  }
}
