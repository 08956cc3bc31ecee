import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { ChunkBody, ChunkResponse } from "./http-body";
import { httpFetch } from "./http-fetch";

const text = (v: Uint8Array | undefined) => Buffer.from(v ?? []).toString("utf8");
const tick = () => new Promise((r) => setImmediate(r));

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("ChunkBody", () => {
  it("hands chunks to a pending read, queues the ones nobody waits for, and answers done at the end", async () => {
    const source = new PassThrough();
    const reader = new ChunkBody(source).getReader();
    const pending = reader.read();
    source.write("a");
    expect(text((await pending).value)).toBe("a");
    source.write("b");
    source.write("c");
    source.end();
    await tick();
    expect(text((await reader.read()).value)).toBe("b");
    expect(text((await reader.read()).value)).toBe("c");
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it("allows one reader at a time, and async iteration takes the reader", async () => {
    const source = new PassThrough();
    const body = new ChunkBody(source);
    const reader = body.getReader();
    expect(body.locked).toBe(true);
    expect(() => body.getReader()).toThrow(TypeError);
    reader.releaseLock();
    await expect(reader.read()).rejects.toThrow(TypeError);
    source.end("x");
    const seen: string[] = [];
    for await (const chunk of body) seen.push(text(chunk));
    expect(seen).toEqual(["x"]);
  });

  it("pauses the source while more than 256 KiB wait unread, and resumes it when they are read", async () => {
    const source = new PassThrough({ highWaterMark: 1 });
    const reader = new ChunkBody(source).getReader();
    const chunk = Buffer.alloc(100 * 1024, 1);
    for (let i = 0; i < 3; i++) source.write(chunk);
    await tick();
    expect(source.isPaused()).toBe(true);
    await reader.read();
    expect(source.isPaused()).toBe(false);
  });

  it("rejects reads with the source's error, dropping what was queued", async () => {
    const source = new PassThrough();
    const reader = new ChunkBody(source).getReader();
    source.write("queued");
    await tick();
    source.destroy(new Error("reset"));
    await tick();
    await expect(reader.read()).rejects.toThrow("reset");
  });

  it("answers a pending read done when cancelled, and destroys the source", async () => {
    const source = new PassThrough();
    const body = new ChunkBody(source);
    const reader = body.getReader();
    const pending = reader.read();
    await reader.cancel();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(source.destroyed).toBe(true);
  });

  it("fails with TypeError: terminated when the server drops the connection in the middle of the body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n", () => setTimeout(() => res.socket?.destroy(), 10));
    });
    const res = await httpFetch(url);
    const reader = res.body!.getReader();
    expect(text((await reader.read()).value)).toBe("data: one\n\n");
    const err = await reader.read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(["terminated", "aborted"]).toContain((err as Error).message);
  });
});

describe("ChunkResponse", () => {
  it("is a Response whose text, json, bytes and blob read the chunk body once", async () => {
    const make = (payload: string) => {
      const source = new PassThrough();
      source.end(payload);
      const headers = new Headers({ "content-type": "application/json" });
      return new ChunkResponse(new ChunkBody(source), { status: 201, statusText: "Created", headers, url: "http://x/y" });
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
