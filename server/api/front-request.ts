import { Readable } from "node:stream";
import type http from "node:http";

/**
 * The request the HTTP front (node-http.ts) hands the REST dispatcher when asked to (`lite`): its method, URL,
 * headers, abort signal and body as text, without building a fetch `Request`, whose constructor (a web stream over the
 * body, a signal following ours, its own copy of the headers) and `text()` cost more CPU than the routes that read a
 * small JSON body or nothing (about 0.1 ms a request under load). Routes marked `lite` in the route table
 * (rest/router.ts) take it as it is; any other route gets a real `Request` made from it first (`fetchRequestOf`), the
 * same one the front built before.
 */
const TO_REQUEST = Symbol.for("standard-agents-studio.fetch-request");
const decoder = new TextDecoder();

export class FrontRequest {
  #headers: Headers | undefined;
  #used = false;
  #request: Request | undefined;

  constructor(
    readonly url: string,
    readonly method: string,
    private readonly pairs: [string, string][],
    /** A small body read whole, the Node request to stream a larger one from, or null (GET, HEAD). */
    private readonly body: Buffer | http.IncomingMessage | null,
    readonly signal: AbortSignal,
  ) {}

  get headers(): Headers {
    return (this.#headers ??= new Headers(this.pairs));
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#request?.bodyUsed ?? false);
  }

  /** The body as text, decoded as `Request.text()` decodes it (UTF-8, a leading byte-order mark dropped). */
  async text(): Promise<string> {
    if (!Buffer.isBuffer(this.body)) return this[TO_REQUEST]().text();
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    const b = this.body;
    return decoder.decode(b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /** The fetch `Request` of this request (made once). */
  [TO_REQUEST](): Request {
    if (this.#request) return this.#request;
    const streamed = this.body !== null && !Buffer.isBuffer(this.body);
    this.#request = new Request(this.url, {
      method: this.method,
      headers: this.pairs,
      body: this.body === null ? undefined : streamed ? (Readable.toWeb(this.body as http.IncomingMessage) as ReadableStream<Uint8Array>) : this.#used ? undefined : (this.body as Buffer),
      signal: this.signal,
      // Required by Node's fetch for streamed request bodies.
      ...(streamed ? { duplex: "half" } : {}),
    } as RequestInit);
    return this.#request;
  }
}

/** A fetch `Request` for `request`: itself when it is one, the one a `FrontRequest` makes otherwise. */
export function fetchRequestOf(request: Request): Request {
  const make = (request as unknown as Record<symbol, (() => Request) | undefined>)[TO_REQUEST];
  return typeof make === "function" ? make.call(request) : request;
}
