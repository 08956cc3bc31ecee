import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveFetchHandler } from "@/server/api/node-http";
import { createRestHandler } from "@/server/api/rest/routes";
import { createTrpcHandler } from "@/server/api/trpc-handler";
import { signIn, type As } from "../helpers/accounts";
import { fixtureAgents, startTestApp, type TestApp } from "../helpers/test-app";

// Bad input is answered with a 4xx in the API's error shape ({error: {code, message}}), never a 500.
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let admin: As;
beforeAll(async () => {
  t = await startTestApp({ agentsSource: fixtureAgents, env: { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-12345" } });
  const rest = createRestHandler(async () => t.app);
  const trpc = createTrpcHandler(async () => t.app);
  server = await serveFetchHandler((req) => (new URL(req.url).pathname.startsWith("/api/trpc/") ? trpc(req) : rest(req)));
  admin = await signIn(server.url, "admin", "pw-admin-12345");
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

/** A raw request (fetch refuses some methods and malformed paths itself). */
function raw(method: string, path: string, opts: { body?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json", ...opts.headers } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const errorShape = (code: string) => ({ error: expect.objectContaining({ code, message: expect.any(String) }) });

describe("bad input is a 4xx", () => {
  it("answers 400 to malformed percent-encoding in a path, a path parameter or the session cookie", async () => {
    expect(await raw("GET", "/api/threads/%E0%A4%A")).toEqual({ status: 400, body: errorShape("BAD_REQUEST") });
    expect(await raw("GET", "/api/variables/agents/%ZZ")).toEqual({ status: 400, body: errorShape("BAD_REQUEST") });
    const thread = await admin("POST", "/api/threads", { agent_id: "chat" });
    expect((await raw("GET", `/api/threads/${thread.body.threadId}/fs/attachments/%C0%AF`)).status).toBe(400);
    expect(await raw("GET", "/api/agents", { headers: { authorization: "", cookie: "studio_session=%E0%A4%A" } })).toEqual({ status: 401, body: errorShape("UNAUTHORIZED") });
  });

  it("answers 413 to JSON nested deeper than the limit, over REST and tRPC", async () => {
    const deepEnv = JSON.stringify({ agent_id: "chat", tags: [], env: { X: JSON.parse(nested(200)) } });
    expect(await raw("POST", "/api/threads", { body: deepEnv })).toEqual({ status: 413, body: errorShape("PAYLOAD_TOO_LARGE") });
    expect(await raw("POST", "/api/threads", { body: nested(100_000) })).toEqual({ status: 413, body: errorShape("PAYLOAD_TOO_LARGE") });
    expect((await raw("POST", "/api/trpc/threads.create", { body: `{"agent_id":"chat","env":{"X":${nested(100_000)}}}` })).status).toBe(413);
    expect((await raw("GET", `/api/trpc/threads.get?input=${encodeURIComponent(nested(150))}`)).status).toBe(413);
    // Strings that look like brackets do not count.
    expect((await raw("POST", "/api/threads", { body: JSON.stringify({ agent_id: "chat", env: { X: nested(500) } }) })).status).toBe(201);
  });

  it("answers 405 to methods the API does not support, TRACE included", async () => {
    // (Node's HTTP server itself answers 400 to a method it does not know, such as TRACK, and closes CONNECT.)
    for (const method of ["TRACE", "PROPFIND"]) {
      const res = await raw(method, "/api/health");
      expect([method, res.status, res.body]).toEqual([method, 405, errorShape("METHOD_NOT_ALLOWED")]);
    }
    expect(await raw("PUT", "/api/health")).toEqual({ status: 405, body: errorShape("METHOD_NOT_ALLOWED") });
  });
});
