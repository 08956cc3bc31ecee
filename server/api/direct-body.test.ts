import http from "node:http";
import { describe, expect, it } from "vitest";
import { directBodyOf, dualBody, withDirectBody } from "./direct-body";
import { serveFetchHandler } from "./node-http";

const bytes = (s: string) => new TextEncoder().encode(s);

/** A body of `n` frames, then (with `hold`) waiting until stopped; records what it was told. */
function frames(n: number, hold = false) {
  const seen = { produced: 0, refused: 0, stopped: false, ended: false };
  let release: () => void = () => {};
  const { stream, direct } = dualBody(
    async (send) => {
      seen.produced++;
      for (let i = 1; i <= n; i++) if (!send(bytes(`data: ${i}\n\n`))) seen.refused++;
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      seen.ended = true;
    },
    () => {
      seen.stopped = true;
      release();
    },
  );
  return { stream, direct, seen, release: () => release() };
}

describe("dualBody", () => {
  it("produces nothing until read, then once, through whichever reader came first", async () => {
    const a = frames(3);
    await new Promise((r) => setTimeout(r, 10));
    expect(a.seen.produced).toBe(0);
    expect(await new Response(a.stream).text()).toBe("data: 1\n\ndata: 2\n\ndata: 3\n\n");
    expect(await a.direct.run({ write: () => true })).toBe(false);
    expect(a.seen.produced).toBe(1);

    const b = frames(2);
    const got: string[] = [];
    expect(await b.direct.run({ write: (c) => (got.push(new TextDecoder().decode(c)), true) })).toBe(true);
    expect(got).toEqual(["data: 1\n\n", "data: 2\n\n"]);
    expect(b.seen.produced).toBe(1);
  });

  it("tells the producer when a direct sink refuses, and stops it when the web stream is cancelled", async () => {
    const a = frames(2);
    await a.direct.run({ write: () => false });
    expect(a.seen.refused).toBe(2);
    const b = frames(1, true);
    const reader = b.stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 1\n\n");
    await reader.cancel();
    expect(b.seen.stopped).toBe(true);
  });
});

describe("a direct body through the HTTP front", () => {
  it("is written to the socket as produced, and ends when the client leaves", async () => {
    let live: ReturnType<typeof frames> | null = null;
    const server = await serveFetchHandler(async (request) => {
      const body = frames(2, true);
      live = body;
      request.signal.addEventListener("abort", () => body.release());
      return withDirectBody(new Response(body.stream, { headers: { "content-type": "text/event-stream" } }), body.direct);
    });
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const req = http.get(`${server.url}/stream`, (res) => {
          expect(res.headers["content-type"]).toBe("text/event-stream");
          let got = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => {
            got += d;
            if (got.endsWith("data: 2\n\n")) {
              res.destroy();
              resolve(got);
            }
          });
        });
        req.on("error", reject);
      });
      expect(text).toBe("data: 1\n\ndata: 2\n\n");
      await expect.poll(() => live!.seen.ended, { timeout: 5000 }).toBe(true);
      // Produced directly: the web stream was never read.
      expect(live!.stream.locked).toBe(false);
      expect(directBodyOf(new Response("x"))).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
