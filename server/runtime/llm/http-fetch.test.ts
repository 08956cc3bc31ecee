import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { httpFetch } from "./http-fetch";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const servers: http.Server[] = [];

async function serve(handler: Handler): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe("httpFetch", () => {
  it("sends method, headers and body, and reads status, headers, url and body back", async () => {
    const { url } = await serve((req, res, body) => {
      res.writeHead(201, { "content-type": "application/json", "x-request-id": "req_1" });
      res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, length: req.headers["content-length"], body }));
    });
    const res = await httpFetch(`${url}/v1/things?x=1`, {
      method: "POST",
      headers: new Headers({ authorization: "Bearer k", "content-type": "application/json" }),
      body: '{"é":1}',
    });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
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
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    release();
    const rest = await reader.read();
    expect(new TextDecoder().decode(rest.value)).toBe("data: two\n\n");
    expect((await reader.read()).done).toBe(true);
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

  it("gives a 204 a null body", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const res = await httpFetch(url, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it("rejects with the signal's reason when aborted before the answer, and cancels a body being read", async () => {
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
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first");
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });

    const already = new AbortController();
    already.abort();
    await expect(httpFetch(url, { signal: already.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("fails with the socket's error code when nothing listens", async () => {
    const { url, server } = await serve(() => {});
    await new Promise((r) => server.close(r));
    await expect(httpFetch(url)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("sends a request again on a new socket when the pooled keep-alive socket was closed by the server", async () => {
    let requests = 0;
    const { url, server } = await serve((_req, res) => {
      requests++;
      res.end("ok");
    });
    expect(await (await httpFetch(url, { method: "POST", body: "a" })).text()).toBe("ok");
    // The server drops its idle connection; the client's pooled socket does not know yet.
    server.closeIdleConnections();
    expect(await (await httpFetch(url, { method: "POST", body: "b" })).text()).toBe("ok");
    expect(requests).toBe(2);
  });

  it("hands bodies it does not send itself (form data) to the global fetch", async () => {
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
