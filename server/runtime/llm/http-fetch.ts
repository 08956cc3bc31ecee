/**
 * The HTTP transport under the OpenAI SDK, handed to it through its documented `fetch` option: undici's dispatcher
 * (http-dispatcher.ts: the keep-alive pool, or the proxy-aware one) sends the request, and its answer is handed back
 * as a `Response` whose body is undici's Node stream (http-response.ts).
 *
 * Why not undici's own `fetch` on the same dispatcher: its WHATWG machinery (a web stream for the string body and
 * another for the response, the fetch state machine) cost about 0.3 ms of CPU per step in the bench's scenario 1 (a
 * model that answers at once on loopback), a step 20–30% longer than on this adapter.
 *
 * The SDK's requests are a string or bytes to an http(s) URL and go out as they are; any other body (form data, a
 * blob, a stream) or a `Request` as input is read whole through a standard `Request` first, which also sets the
 * content type a form needs.
 *
 * Like fetch: the caller's abort signal cancels the request or the body with the signal's reason; a compressed
 * response (gzip, deflate, br) is decompressed. Redirects are not followed: the SDK sees the 3xx as an error, where
 * fetch would re-send a POST as a body-less GET. A pooled socket the server closes at the very moment a request goes
 * out fails that request with a connection error, which the LLM client retries like any other.
 */
import type { Dispatcher } from "undici";
import { StreamResponse } from "./http-response";

/** Statuses whose response has no body (`new Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

interface Outgoing {
  url: URL;
  method: string;
  headers: Headers;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
}

/** A `fetch` for the SDK that sends every request through `dispatcher`. */
export function createHttpFetch(dispatcher: Dispatcher): typeof fetch {
  return async (input, init) => send(dispatcher, plain(input, init) ?? (await normalized(input, init)));
}

/** The SDK's request as it is: a string or URL, and a string or bytes (or no body). */
function plain(input: RequestInfo | URL, init: RequestInit = {}): Outgoing | null {
  const url = typeof input === "string" ? safeUrl(input) : input instanceof URL ? input : null;
  const body = init.body ?? undefined;
  if (!url || (typeof body !== "string" && !(body instanceof Uint8Array) && body !== undefined)) return null;
  // The SDK hands a Headers object; anything else goes through one.
  const headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
  return { url, method: init.method ?? "GET", headers, body, signal: init.signal ?? undefined };
}

/** Any other request, read whole through a standard `Request` (which refuses what fetch would refuse). */
async function normalized(input: RequestInfo | URL, init: RequestInit | undefined): Promise<Outgoing> {
  const request = new Request(input, init);
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  return { url: new URL(request.url), method: request.method, headers: request.headers, body, signal: request.signal };
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

async function send(dispatcher: Dispatcher, { url, method, headers: sent, body, signal }: Outgoing): Promise<Response> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`fetch: unsupported URL scheme ${url.protocol}`);
  const answer = await dispatcher.request({
    origin: url.origin,
    path: url.pathname + url.search,
    method: method as Dispatcher.HttpMethod,
    // Headers iterate as name/value pairs, which undici takes as they are.
    headers: sent,
    body,
    signal,
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      try {
        headers.append(name, v);
      } catch {
        // A header value fetch would refuse too (not ByteString): left out.
      }
    }
  }
  const status = answer.statusCode;
  if (NULL_BODY.has(status)) {
    await answer.body.dump();
    const response = new Response(null, { status, statusText: answer.statusText, headers });
    Object.defineProperty(response, "url", { value: url.href });
    return response;
  }
  return new StreamResponse(answer.body, { status, statusText: answer.statusText, headers, url: url.href });
}
