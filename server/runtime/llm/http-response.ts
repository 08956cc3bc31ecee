/**
 * The `Response` the LLM client's HTTP transport (http-fetch.ts) hands the OpenAI SDK: status, headers and url as a
 * standard `Response`, the body as the Node stream undici's dispatcher delivers (with any content coding undone)
 * rather than a web `ReadableStream`.
 *
 * The SDK reads a streamed body by async iteration when the body has no `getReader` (a Node stream has none), and a
 * whole body through `text()` or `json()`; these and the other body readers go through `node:stream/consumers`.
 * Node's web stream cost 7–9% of a step on loopback (its construction, and a queue, a reader request and two promises
 * per chunk); undici's fetch builds one for every response. `clone()` and `formData()` are not supported (the SDK
 * calls neither).
 */
import type { Readable } from "node:stream";
import { arrayBuffer, text } from "node:stream/consumers";
import zlib from "node:zlib";

export class StreamResponse extends Response {
  readonly #body: Readable;
  readonly #url: string;
  #used = false;

  constructor(body: Readable, init: { status: number; statusText: string; headers: Headers; url: string }) {
    super(null, { status: init.status, statusText: init.statusText, headers: init.headers });
    this.#body = keepAliveOnReturn(decoded(body, init.headers.get("content-encoding")));
    this.#url = init.url;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    // What the SDK reads of a stream: async iteration (and `return()` on it to cancel).
    return this.#body as unknown as ReadableStream<Uint8Array<ArrayBuffer>>;
  }

  override get bodyUsed(): boolean {
    return this.#used || this.#body.readableDidRead || this.#body.destroyed;
  }

  override get url(): string {
    return this.#url;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return arrayBuffer(this.take());
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  override async text(): Promise<string> {
    return text(this.take());
  }

  override async json(): Promise<any> {
    return JSON.parse(await this.text());
  }

  override async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get("content-type") ?? "" });
  }

  override formData(): Promise<FormData> {
    return Promise.reject(new TypeError("LLM transport responses do not parse form data"));
  }

  override clone(): Response {
    throw new TypeError("LLM transport responses cannot be cloned");
  }

  private take(): Readable {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#body;
  }
}

/** How long the rest of a body whose reader stopped early may take to arrive before the connection is dropped. */
const DRAIN_MS = 2000;

/**
 * The SDK stops reading a chat stream at `[DONE]` and closes its iterator. A Node stream's iterator destroys the
 * stream when it is closed before the stream ended, and undici then closes the connection, since the body's last
 * bytes (the chunked terminator, a separate write on most servers) were still on their way: every model call paid a
 * new connection (a TLS handshake against a real endpoint), more so under load, when the terminator arrives later.
 * Here an iterator closed early leaves the stream open and the rest of the body is read and dropped, so the socket
 * goes back to the pool; a body that does not end within `DRAIN_MS` is destroyed. An abort (the caller's signal, or the
 * SDK's when it stops before `[DONE]`) still destroys the body at once through undici.
 */
function keepAliveOnReturn(stream: Readable): Readable {
  Object.defineProperty(stream, Symbol.asyncIterator, {
    configurable: true,
    value: () => {
      const it = stream.iterator({ destroyOnReturn: false });
      const close = it.return!.bind(it);
      it.return = async (value?: unknown) => {
        const result = await close(value);
        drain(stream);
        return result;
      };
      return it;
    },
  });
  return stream;
}

function drain(stream: Readable): void {
  if (stream.destroyed || stream.readableEnded) return;
  const timer = setTimeout(() => stream.destroy(), DRAIN_MS);
  timer.unref();
  stream.once("close", () => clearTimeout(timer));
  // An error while dropping the rest concerns nobody: the answer was read.
  stream.on("error", () => {});
  stream.resume();
}

/** The body with its content coding undone (fetch does the same; the SDK never asks for a coding itself). */
function decoded(body: Readable, coding: string | null): Readable {
  const c = coding?.trim().toLowerCase();
  const decoder =
    c === "gzip" || c === "x-gzip"
      ? zlib.createGunzip()
      : c === "deflate"
        ? zlib.createInflate()
        : c === "br"
          ? zlib.createBrotliDecompress()
          : null;
  if (!decoder) return body;
  // Either side's end or error ends the other: an abort destroys the body with the signal's reason. The error stays
  // on the decoder for its reader; without a listener of its own, one nobody reads yet would crash the process (undici
  // guards its own body stream the same way).
  body.on("error", (err) => decoder.destroy(err));
  decoder.on("error", () => {});
  decoder.once("close", () => body.destroy());
  return body.pipe(decoder);
}
