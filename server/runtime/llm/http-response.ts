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
    this.#body = decoded(body, init.headers.get("content-encoding"));
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
