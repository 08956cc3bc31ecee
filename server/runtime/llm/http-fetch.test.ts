import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import zlib from "node:zlib";
import OpenAI from "openai";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createDispatcher } from "./http-dispatcher";
import { createHttpFetch } from "./http-fetch";
import { StreamResponse } from "./http-response";
import { classifyError } from "./retry";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const servers: http.Server[] = [];
const dispatcher = createDispatcher();
const httpFetch = createHttpFetch(dispatcher);
const decode = (v: Uint8Array | undefined) => Buffer.from(v ?? []).toString("utf8");
/** The body as the SDK reads it: by async iteration (it has no `getReader`). */
const chunksOf = (res: Response) => (res.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();

async function serve(handler: Handler): Promise<{ url: string; server: http.Server; connections: () => number }> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => handler(req, res, body));
  });
  // As short as the scripted server's: undici's default margin would open a connection per request.
  server.keepAliveTimeout = 1_000;
  let connections = 0;
  server.on("connection", () => connections++);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, connections: () => connections };
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});
afterAll(() => dispatcher.close());

describe("createHttpFetch", () => {
  it("sends method, headers and body, and reads status, headers, url and body back", async () => {
    const { url } = await serve((req, res, body) => {
      res.writeHead(201, "Made", { "content-type": "application/json", "x-request-id": "req_1" });
      res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, length: req.headers["content-length"], body }));
    });
    const res = await httpFetch(`${url}/v1/things?x=1`, {
      method: "POST",
      headers: new Headers({ authorization: "Bearer k", "content-type": "application/json" }),
      body: '{"é":1}',
    });
    expect([res.status, res.statusText, res.ok]).toEqual([201, "Made", true]);
    expect(res.headers.get("x-request-id")).toBe("req_1");
    expect(res.url).toBe(`${url}/v1/things?x=1`);
    expect(await res.json()).toEqual({ method: "POST", auth: "Bearer k", length: String(Buffer.byteLength('{"é":1}')), body: '{"é":1}' });
  });

  it("streams the body chunk by chunk as the server writes it", async () => {
    let release!: () => void;
    const second = new Promise<void>((r) => (release = r));
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
      void second.then(() => res.end("data: two\n\n"));
    });
    const res = await httpFetch(url, { method: "POST", body: "{}" });
    const chunks = chunksOf(res);
    expect(decode((await chunks.next()).value)).toBe("data: one\n\n");
    release();
    expect(decode((await chunks.next()).value)).toBe("data: two\n\n");
    expect((await chunks.next()).done).toBe(true);
  });

  it("keeps the connection for the next request", async () => {
    const { url, connections } = await serve((_req, res) => res.end("ok"));
    for (let i = 0; i < 6; i++) expect(await (await httpFetch(url, { method: "POST", body: "{}" })).text()).toBe("ok");
    // undici's pool may open a second connection while the first one is still settling its response.
    expect(connections()).toBeLessThanOrEqual(2);
  });

  it("decompresses a gzip or brotli body, as fetch does", async () => {
    const { url } = await serve((req, res) => {
      const coding = req.url === "/br" ? "br" : "gzip";
      res.writeHead(200, { "content-encoding": coding });
      res.end(coding === "br" ? zlib.brotliCompressSync("brotli text") : zlib.gzipSync("gzip text"));
    });
    expect(await (await httpFetch(`${url}/gz`)).text()).toBe("gzip text");
    expect(await (await httpFetch(`${url}/br`)).text()).toBe("brotli text");
  });

  it("fails the reads of a compressed body aborted before anyone reads it", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      const gzip = zlib.createGzip();
      gzip.pipe(res);
      gzip.write("unread");
      gzip.flush();
    });
    const controller = new AbortController();
    const res = await httpFetch(url, { signal: controller.signal });
    controller.abort(new Error("stop now"));
    await new Promise((r) => setTimeout(r, 20));
    await expect(chunksOf(res).next()).rejects.toThrow("stop now");
  });

  it("gives a 204 a null body", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const res = await httpFetch(url, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it("rejects with the signal's reason when aborted before the answer, and while a body is read", async () => {
    const { url } = await serve((req, res) => {
      if (req.url === "/slow") return; // never answers
      res.writeHead(200);
      res.write("first");
    });
    const early = new AbortController();
    const pending = httpFetch(`${url}/slow`, { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });

    const late = new AbortController();
    const res = await httpFetch(`${url}/body`, { signal: late.signal });
    const chunks = chunksOf(res);
    expect(decode((await chunks.next()).value)).toBe("first");
    late.abort(new Error("stop now"));
    await expect(chunks.next()).rejects.toThrow("stop now");

    const already = new AbortController();
    already.abort();
    await expect(httpFetch(url, { signal: already.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("fails with the socket's error code when nothing listens", async () => {
    const { url, server } = await serve(() => {});
    await new Promise((r) => server.close(r));
    await expect(httpFetch(url)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("fails a body the server drops midway with an error the client retries", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n", () => setTimeout(() => res.socket?.destroy(), 10));
    });
    const chunks = chunksOf(await httpFetch(url));
    expect(decode((await chunks.next()).value)).toBe("data: one\n\n");
    const err = await chunks.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(classifyError(err).retryable).toBe(true);
  });

  it("opens a new connection when the server closed the pooled one", async () => {
    let requests = 0;
    const { url, server, connections } = await serve((_req, res) => {
      requests++;
      res.end("ok");
    });
    expect(await (await httpFetch(url, { method: "POST", body: "a" })).text()).toBe("ok");
    server.closeIdleConnections();
    await new Promise((r) => setTimeout(r, 20));
    expect(await (await httpFetch(url, { method: "POST", body: "b" })).text()).toBe("ok");
    expect([requests, connections()]).toEqual([2, 2]);
  });

  it("sends other bodies (form data) read whole, with the content type fetch gives them", async () => {
    const { url } = await serve((req, res, body) => res.end(`${req.headers["content-type"]?.split(";")[0]}|${body.includes('name="field"')}`));
    const form = new FormData();
    form.set("field", "value");
    expect(await (await httpFetch(url, { method: "POST", body: form })).text()).toBe("multipart/form-data|true");
  });

  it("carries the SDK's streamed completions, errors and all", async () => {
    const { url } = await serve((req, res, body) => {
      if (JSON.parse(body).model === "missing") {
        res.writeHead(404, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: "no such model", type: "invalid_request_error" } }));
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.end(chunk({ role: "assistant", content: "Hel" }, null) + chunk({ content: "lo" }, "stop") + "data: [DONE]\n\n");
    });
    const sdk = new OpenAI({ baseURL: url, apiKey: "k", maxRetries: 0, fetch: httpFetch });
    const stream = await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
    let text = "";
    for await (const c of stream) text += c.choices[0]?.delta.content ?? "";
    expect(text).toBe("Hello");
    const err = await sdk.chat.completions.create({ model: "missing", messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).message).toContain("no such model");
  });
});


  it("keeps the connection when the SDK stops reading at [DONE] before the body's end arrives", async () => {
    const { url, connections } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] })}\n\n`;
      // The end of the chunked body comes after the sentinel, as a separate write a little later.
      res.write(chunk + "data: [DONE]\n\n", () => setTimeout(() => res.end(), 20));
    });
    const sdk = new OpenAI({ baseURL: url, apiKey: "k", maxRetries: 0, fetch: httpFetch });
    for (let i = 0; i < 5; i++) {
      const stream = await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
      let text = "";
      for await (const c of stream) text += c.choices[0]?.delta.content ?? "";
      expect(text).toBe("ok");
      await new Promise((r) => setTimeout(r, 40));
    }
    expect(connections()).toBeLessThanOrEqual(2);
  });
describe("StreamResponse", () => {
  it("is a Response whose text, json, bytes and blob read the stream once", async () => {
    const make = (payload: string) => {
      const source = new PassThrough();
      source.end(payload);
      const headers = new Headers({ "content-type": "application/json" });
      return new StreamResponse(source, { status: 201, statusText: "Created", headers, url: "http://x/y" });
    };
    const res = make('{"a":"é"}');
    expect(res).toBeInstanceOf(Response);
    expect([res.status, res.statusText, res.ok, res.url, res.headers.get("content-type")]).toEqual([201, "Created", true, "http://x/y", "application/json"]);
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ a: "é" });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
    expect(new TextDecoder().decode(await make("bytes").bytes())).toBe("bytes");
    expect(await (await make("abc").blob()).text()).toBe("abc");
    expect(Buffer.from(await make("ab").arrayBuffer()).toString()).toBe("ab");
    expect(() => make("x").clone()).toThrow(TypeError);
  });
});
