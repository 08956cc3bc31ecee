/**
 * A response body read straight off the socket, for `httpFetch`.
 *
 * Node's web `ReadableStream` costs about 0.1 ms per streamed completion on loopback: building one registers it as a
 * transferable, and every chunk goes through its queue, a reader request and two promises. `ChunkBody` keeps the
 * chunks the socket delivers in an array and hands them to one reader: `getReader().read()` (what the OpenAI SDK calls
 * on a fetch body) or `for await` (what it calls on a node-fetch body). It is not a full web stream: no `tee`,
 * `pipeTo` or `pipeThrough`.
 *
 * Like a fetch body: one reader at a time; `cancel()` ends the download and answers pending reads with `done`; an error
 * of the source (the request's abort reason, a reset socket) rejects the reads; a source that closes before its end
 * rejects them with `TypeError: terminated`, as fetch does. The socket is paused while more than `HIGH_WATER` bytes
 * wait unread, and resumed when the reader has taken them.
 */
import type { Readable } from "node:stream";

const HIGH_WATER = 256 * 1024;
const DONE: ReadableStreamReadDoneResult<Uint8Array> = Object.freeze({ done: true, value: undefined });

type Read = ReadableStreamReadResult<Uint8Array>;

export class ChunkBody implements AsyncIterable<Uint8Array> {
  private readonly chunks: Buffer[] = [];
  private head = 0;
  private queued = 0;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private waiting: { resolve: (r: Read) => void; reject: (e: unknown) => void } | null = null;
  private reader: BodyReader | null = null;
  /** Set once a reader was taken or the body was read whole (`Response.bodyUsed`). */
  disturbed = false;

  constructor(private readonly source: Readable) {
    source.on("data", (chunk: Buffer) => this.push(chunk));
    source.once("end", () => {
      this.ended = true;
      this.settle();
    });
    source.once("error", (error) => this.fail(error));
    source.once("close", () => {
      if (!this.ended) this.fail(new TypeError("terminated"));
    });
  }

  get locked(): boolean {
    return this.reader !== null;
  }

  getReader(): BodyReader {
    if (this.reader) throw new TypeError("The body is locked to a reader");
    this.disturbed = true;
    this.reader = new BodyReader(this);
    return this.reader;
  }

  /** Ends the download; pending and later reads answer `done`. */
  cancel(): Promise<void> {
    this.ended = true;
    this.chunks.length = this.head = this.queued = 0;
    this.settle();
    if (!this.source.destroyed) this.source.destroy();
    return Promise.resolve();
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const reader = this.getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      return: async () => {
        await reader.cancel();
        return DONE as IteratorResult<Uint8Array>;
      },
    };
  }

  /** The whole body, for `text()`, `json()` and the like. */
  async bytes(): Promise<Uint8Array> {
    const reader = this.getReader();
    const parts: Buffer[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value as Buffer);
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** @internal the reader's read. */
  next(): Promise<Read> {
    if (this.head < this.chunks.length) return Promise.resolve({ done: false, value: this.take() });
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.ended) return Promise.resolve(DONE);
    if (this.waiting) return Promise.reject(new TypeError("A read is already pending"));
    return new Promise<Read>((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  /** @internal a reader let go: the body may be read by another one. */
  release(reader: BodyReader): void {
    if (this.reader === reader) this.reader = null;
  }

  private push(chunk: Buffer): void {
    if (this.ended) return;
    if (this.waiting && this.head === this.chunks.length) {
      const { resolve } = this.waiting;
      this.waiting = null;
      resolve({ done: false, value: chunk });
      return;
    }
    this.chunks.push(chunk);
    this.queued += chunk.byteLength;
    if (this.queued > HIGH_WATER) this.source.pause();
  }

  private take(): Buffer {
    const chunk = this.chunks[this.head]!;
    this.chunks[this.head++] = undefined as unknown as Buffer;
    this.queued -= chunk.byteLength;
    if (this.head === this.chunks.length) this.chunks.length = this.head = 0;
    if (this.queued <= HIGH_WATER && this.source.isPaused() && !this.ended) this.source.resume();
    return chunk;
  }

  private fail(error: unknown): void {
    if (this.ended || this.failure) return;
    this.failure = { error };
    // Like a web stream: an errored body drops what it had queued.
    this.chunks.length = this.head = this.queued = 0;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(error);
  }

  private settle(): void {
    const waiting = this.waiting;
    if (!waiting || this.head < this.chunks.length) return;
    this.waiting = null;
    waiting.resolve(DONE);
  }
}

/** `getReader()`'s answer: `read`, `cancel` and `releaseLock`, as on a web stream's default reader. */
export class BodyReader {
  private released = false;

  constructor(private readonly body: ChunkBody) {}

  read(): Promise<Read> {
    if (this.released) return Promise.reject(new TypeError("The reader was released"));
    return this.body.next();
  }

  cancel(): Promise<void> {
    return this.body.cancel();
  }

  releaseLock(): void {
    this.released = true;
    this.body.release(this);
  }
}

/**
 * A standard `Response` whose body is a `ChunkBody`: status, headers and the rest come from `Response`; the body and
 * the methods that read it are the chunk body's. `clone()` and `formData()` are not supported (the SDK calls neither).
 */
export class ChunkResponse extends Response {
  readonly #body: ChunkBody;
  readonly #headers: Headers;
  readonly #url: string;

  constructor(body: ChunkBody, init: { status: number; statusText?: string; headers: Headers; url: string }) {
    super(null, { status: init.status, statusText: init.statusText });
    this.#body = body;
    this.#headers = init.headers;
    this.#url = init.url;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    // What the SDK reads of a stream: getReader() and async iteration.
    return this.#body as unknown as ReadableStream<Uint8Array<ArrayBuffer>>;
  }

  override get bodyUsed(): boolean {
    return this.#body.disturbed;
  }

  override get headers(): Headers {
    return this.#headers;
  }

  override get url(): string {
    return this.#url;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    this.assertUnused();
    // Socket chunks are Buffers over plain ArrayBuffers.
    return (await this.#body.bytes()) as Uint8Array<ArrayBuffer>;
  }

  override async text(): Promise<string> {
    const bytes = await this.bytes();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  }

  override async json(): Promise<any> {
    return JSON.parse(await this.text());
  }

  override async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.#headers.get("content-type") ?? "" });
  }

  override formData(): Promise<FormData> {
    return Promise.reject(new TypeError("httpFetch responses do not parse form data"));
  }

  override clone(): Response {
    throw new TypeError("httpFetch responses cannot be cloned");
  }

  private assertUnused(): void {
    if (this.#body.disturbed) throw new TypeError("Body is unusable: Body has already been read");
  }
}
