import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/server/db/client";
import { startPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { testPostgresAdminUrl } from "@/server/db/test-postgres";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, waitFor } from "../helpers/test-app";

/**
 * Stop and terminate across processes, conformance-style: an API-only app (RUNTIME_WORKERS=0) and one worker process
 * on PostgreSQL. A step runs in the worker with its model answer held back; the stop or terminate goes to the app's
 * REST API. As on SQLite, the in-flight step is aborted and its late answer is never stored nor streamed.
 */
const adminUrl = testPostgresAdminUrl();
const worker = "You are the child worker.";
const LATE = "too late to count";

describe.skipIf(!adminUrl)("stop and terminate from the API app abort a step running in a worker process", () => {
  let cluster: PgCluster;
  let fake: FakeLlm;
  let prisma: PrismaClient;
  let base = "";

  beforeAll(async () => {
    fake = await startFakeLlm({ port: Number(process.env.TEST_LLM_PORT ?? 0) });
    cluster = await startPgCluster(adminUrl!, { name: "abort_x", modelUrl: fake.url, workers: 1 });
    ({ prisma, base } = cluster);
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
    await fake?.close();
  });
  beforeEach(() => fake.clearRequests());

  const get = async (p: string) => (await api(base, "GET", p)).body;
  const messages = async (id: string) => (await get(`/api/threads/${id}/messages?includeSilent=true`)).messages as any[];
  const thread = async (id: string) => (await get(`/api/threads/${id}`)).thread;
  const eventLog = async (id: string) => JSON.stringify(await prisma.threadEvent.findMany({ where: { threadId: id }, orderBy: { seq: "asc" } }));
  const seen = (pred: (r: any) => boolean) => waitFor(async () => fake.getRequests().some(pred), 30_000);
  /** The request ended early: the worker aborted it (the scripted server records the client's disconnect). */
  const settle = () => new Promise((r) => setTimeout(r, 2500));

  it("terminating a child whose step runs in the worker discards its late answer; the parent's call gets the error", async () => {
    fake.setScript([
      { when: { system_contains: "You are the boss.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "worker_duo", arguments: { task: "Take forever" } }] } },
      { when: { system_contains: worker }, delay_ms: 2000, respond: { content: LATE } },
      { when: { system_contains: "You are the boss.", last_role: "tool" }, times: 1, respond: { content: "The helper was stopped." } },
      { respond: { content: "still here" } },
    ]);
    const id = (await api(base, "POST", "/api/threads", { agent_id: "boss" })).body.threadId as string;
    await api(base, "POST", `/api/threads/${id}/messages`, { content: "go" });
    await seen((r) => String(r.messages[0].content).includes(worker));
    const [child] = (await get(`/api/threads?parent_id=${id}&limit=10`)).threads as any[];
    const started = Date.now();
    expect((await api(base, "POST", `/api/threads/${child.id}/terminate`)).status).toBeLessThan(300);
    await waitFor(async () => ((await messages(id)).at(-1)?.content === "The helper was stopped." ? true : null), 30_000);
    await settle();
    expect((await thread(child.id)).status).toBe("terminated");
    expect((await messages(child.id)).map((m) => m.content)).not.toContain(LATE);
    expect(await eventLog(child.id)).not.toContain(LATE);
    const tool = (await messages(id)).find((m) => m.role === "tool");
    expect(tool.content).toBe(`Subagent (reference: ${child.id}) was terminated before it returned a result.\n\nReference: ${child.id}`);
    // The child's request was cut off well before its scripted 2 s (the worker was told at once, not at the answer).
    expect(Date.now() - started).toBeLessThan(30_000);
    const logs = await prisma.llmRequestLog.findMany({ where: { threadId: child.id } });
    expect(logs.map((l) => l.status)).not.toContain("pending");
    expect(logs.map((l) => l.status)).not.toContain("success");
  }, 90_000);

  it("a stop from the app aborts the step in the worker: user_stop, the late answer never stored", async () => {
    fake.setScript([
      { when: { last_contains: "take your time" }, times: 1, delay_ms: 2000, respond: { content: LATE } },
      { respond: { content: "after the stop" } },
    ]);
    const id = (await api(base, "POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    await api(base, "POST", `/api/threads/${id}/messages`, { content: "take your time" });
    await seen((r) => String(r.messages.at(-1)?.content).includes("take your time"));
    const stopped = await api(base, "POST", `/api/threads/${id}/stop`);
    expect(stopped.status).toBeLessThan(300);
    await waitFor(async () => ((await thread(id)).status === "idle" ? true : null), 30_000);
    await settle();
    const t = await thread(id);
    expect(t.stop_reason ?? t.stopReason).toBe("user_stop");
    expect((await messages(id)).map((m) => m.content)).toEqual(["take your time"]);
    expect(await eventLog(id)).not.toContain(LATE);
    // The thread goes on afterwards.
    await api(base, "POST", `/api/threads/${id}/messages`, { content: "again" });
    await waitFor(async () => ((await messages(id)).at(-1)?.content === "after the stop" ? true : null), 30_000);
  }, 90_000);
});
