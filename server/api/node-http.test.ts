import http from "node:http";
import { describe, expect, it } from "vitest";
import { rawPost } from "../../tests/helpers/raw-post";
import { serveFetchHandler } from "./node-http";

/** A request with a body through plain `http` (chunked when `chunked`), answered as text. */
const post = async (url: string, body: string, chunked = false) => (await rawPost(url, body, { chunked })).text;

describe("answerWithFetchHandler", () => {
  it("hands the handler small bodies, large ones and chunked ones whole, byte for byte", async () => {
    const server = await serveFetchHandler(async (request) => new Response(`${request.method} ${(await request.text()).length} ${request.headers.get("content-type")}`));
    try {
      const small = JSON.stringify({ content: "héllo ✓".repeat(10) });
      expect(await post(`${server.url}/x`, small)).toBe(`POST ${small.length} application/json`);
      const large = JSON.stringify({ content: "x".repeat(200_000) });
      expect(await post(`${server.url}/x`, large)).toBe(`POST ${large.length} application/json`);
      expect(await post(`${server.url}/x`, small, true)).toBe(`POST ${small.length} application/json`);
      expect(await post(`${server.url}/x`, "")).toBe("POST 0 application/json");
    } finally {
      await server.close();
    }
  });

  it("aborts the handler's signal when the client leaves a stream, not once a response was written whole", async () => {
    const signals: AbortSignal[] = [];
    const server = await serveFetchHandler(async (request) => {
      signals.push(request.signal);
      if (new URL(request.url).pathname === "/whole") return new Response("done");
      return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("data: 1\n\n")) }));
    });
    try {
      expect(await (await fetch(`${server.url}/whole`)).text()).toBe("done");
      const controller = new AbortController();
      const res = await fetch(`${server.url}/stream`, { signal: controller.signal });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
      await expect.poll(() => signals[1]?.aborted).toBe(true);
      expect(signals[0]!.aborted).toBe(false);
    } finally {
      await server.close();
    }
  });
});

describe("answerWithFetchHandler with a client that stops reading", () => {
  it("cancels a streamed body whose client went away while the response waited for the socket to drain", async () => {
    let cancelled = false;
    const chunk = new Uint8Array(256 * 1024);
    const server = await serveFetchHandler(async () => new Response(new ReadableStream({ pull: (c) => c.enqueue(chunk), cancel: () => void (cancelled = true) })));
    try {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${server.url}/stream`, (res) => {
          // Read nothing, so the server's writes fill the socket and it waits for a drain; then leave.
          setTimeout(() => {
            res.destroy();
            resolve();
          }, 300);
        });
        req.on("error", reject);
      });
      await expect.poll(() => cancelled, { timeout: 5000 }).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("keep-alive", () => {
  it("keeps an idle connection open past Node's default (5 s, closed by 7 s), so a client's next request on it is answered", async () => {
    const server = await serveFetchHandler(async () => new Response("ok"));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ body: string; reused: boolean }>((resolve, reject) => {
        const req = http.get(`${server.url}/x`, { agent }, (res) => {
          let body = "";
          res.setEncoding("utf8").on("data", (c: string) => (body += c));
          res.on("end", () => resolve({ body, reused: req.reusedSocket }));
        });
        req.on("error", reject);
      });
    try {
      expect(await get()).toEqual({ body: "ok", reused: false });
      await new Promise((r) => setTimeout(r, 7_000));
      expect(await get()).toEqual({ body: "ok", reused: true });
    } finally {
      agent.destroy();
      await server.close();
    }
  }, 15_000);
});
