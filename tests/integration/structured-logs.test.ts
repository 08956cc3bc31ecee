import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { ServerProcess } from "../helpers/server-process";
import { api, fixtureAgents, waitFor } from "../helpers/test-app";

let fake: FakeLlm;
let server: ServerProcess;

beforeAll(async () => {
  fake = await startFakeLlm();
  server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", LOG_LEVEL: "debug" } });
  await server.start();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

/** The JSON records among the process's output (user code may print plain lines too). */
function records(): Record<string, unknown>[] {
  return server.output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("structured JSON logs", () => {
  it("log each request with its id (sent back as X-Request-Id) and the thread it names", async () => {
    const created = await fetch(`${server.url}/api/threads`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "client-chosen.id-1" },
      body: JSON.stringify({ agent_id: "chat" }),
    });
    expect(created.headers.get("x-request-id")).toBe("client-chosen.id-1");
    const { threadId } = (await created.json()) as { threadId: string };
    const read = await fetch(`${server.url}/api/threads/${threadId}?token=never-logged`, { headers: { "x-request-id": "not acceptable\u00e9" } });
    const generated = read.headers.get("x-request-id")!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);

    await waitFor(async () => records().some((r) => r.requestId === generated));
    expect(records().find((r) => r.requestId === "client-chosen.id-1")).toMatchObject({ component: "http", level: "debug", method: "POST", path: "/api/threads", status: 201 });
    const get = records().find((r) => r.requestId === generated)!;
    expect(get).toMatchObject({ component: "http", method: "GET", path: `/api/threads/${threadId}`, status: 200, threadId });
    expect(typeof get.ms).toBe("number");
    expect(server.output).not.toContain("never-logged");
  });

  it("carry the thread and its activation on the runtime's records", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "explode", arguments: {} }] } },
      { respond: { content: "recovered" } },
    ]);
    const id = (await api(server.url, "POST", "/api/threads", { agent_id: "hooked" })).body.threadId as string;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "go" });
    await waitFor(async () => records().some((r) => r.component === "runtime" && r.threadId === id && r.level === "warn"), 20_000);
    const warned = records().filter((r) => r.component === "runtime" && r.threadId === id && r.level === "warn");
    for (const r of warned) {
      expect(r.activationId).toEqual(expect.any(String));
      expect(r.workerId).toEqual(expect.any(String));
      expect(typeof r.msg).toBe("string");
    }
    // One activation ran the message: every record of it names the same one.
    expect(new Set(warned.map((r) => r.activationId)).size).toBe(1);
  });

  it("never hold a secret value", async () => {
    const CANARY = "sk-log-canary-5f0c2a";
    fake.setScript([
      { when: { last_contains: "spill now" }, times: 1, respond: { tool_calls: [{ name: "spill_throw", arguments: {} }] } },
      { respond: { content: "ok" } },
    ]);
    const id = (await api(server.url, "POST", "/api/threads", { agent_id: "spiller", env: { BACKEND_TOKEN: CANARY }, env_types: { BACKEND_TOKEN: "secret" } })).body.threadId as string;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "spill now" });
    const threw = await waitFor(async () => records().find((r) => r.threadId === id && r.msg === "tool spill_throw threw"), 20_000);
    expect(threw).toMatchObject({ component: "runtime", level: "warn", error: "boom ••••" });
    expect(server.output).not.toContain(CANARY);
  });
});
