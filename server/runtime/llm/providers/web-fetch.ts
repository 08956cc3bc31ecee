/**
 * The runtime's fetch answers with a Node stream as the body (what the `openai` and Anthropic SDKs iterate, without a
 * copy). Code that reads a body with `getReader()` (the Gemini SDK, custom providers) gets it as a web stream instead.
 */
import { Readable } from "node:stream";

export function webFetch(transport: typeof fetch, seen?: (res: Response) => void): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await transport(input, init);
    seen?.(res);
    const body = res.body as unknown;
    if (!(body instanceof Readable)) return res;
    return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status: res.status, statusText: res.statusText, headers: res.headers });
  }) as typeof fetch;
}
