import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/server/db/client";
import { startPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { testPostgresAdminUrl } from "@/server/db/test-postgres";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { createPersistence } from "@/server/db/persistence";
import { NodeProcess } from "../helpers/node-process";
import { SseRecorder } from "../helpers/sse-recorder";
import { api, waitFor } from "../helpers/test-app";

/**
 * Scale-out on PostgreSQL for real: one app process without workers (RUNTIME_WORKERS=0), three `npm run worker`
 * processes, a three-level subagent run, and one worker SIGKILLed while it runs a thread of the tree. Runs when
 * TEST_DATABASE_URL names a PostgreSQL database whose role may create databases. TEST_APP_PORT and TEST_LLM_PORT
 * pin the ports (free ones otherwise).
 */
const adminUrl = testPostgresAdminUrl();

const boss = "You are the crash boss.";
const manager = "You are the crash manager.";
const leaf = "You are the crash leaf.";

describe.skipIf(!adminUrl)("one app process and three worker processes on PostgreSQL", () => {
  let cluster: PgCluster;
  let fake: FakeLlm;
  let prisma: PrismaClient;
  let base = "";
  let workers: NodeProcess[] = [];
  const recorders: SseRecorder[] = [];

  beforeAll(async () => {
    fake = await startFakeLlm({ port: Number(process.env.TEST_LLM_PORT ?? 0) });
    // A killed worker's threads come back after a few seconds (jobs expire after two lease periods).
    cluster = await startPgCluster(adminUrl!, { name: "workers", modelUrl: fake.url, workers: 3, startWorkers: false, env: { WORKER_LEASE_SECONDS: "3" } });
    ({ prisma, base, workers } = cluster);
  }, 120_000);

  afterAll(async () => {
    for (const r of recorders) await r.close();
    await cluster?.close();
    await fake?.close();
  });

  const get = async (p: string) => (await api(base, "GET", p)).body;
  const messages = async (id: string) => (await get(`/api/threads/${id}/messages?includeSilent=true`)).messages as any[];
  const children = async (id: string) => (await get(`/api/threads?parent_id=${id}&limit=100`)).threads as any[];
  const slowRuns = async (id: string) => (await fetch(`${base}/api/threads/${id}/fs/slow-runs.txt`)).text();
  const watch = (id: string) => {
    const r = new SseRecorder(`${base}/api/threads/${id}/stream`);
    recorders.push(r);
    return r;
  };

  it("the app without workers queues the work and runs none of it; the workers run it", async () => {
    fake.setScript([{ when: { last_contains: "queued while no worker runs" }, times: 1, respond: { content: "answered by a worker" } }]);
    const id = (await api(base, "POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    expect((await api(base, "POST", `/api/threads/${id}/messages`, { content: "queued while no worker runs" })).status).toBe(202);
    await new Promise((r) => setTimeout(r, 1500));
    expect(fake.getRequests()).toEqual([]);
    const jobs = await prisma.$queryRawUnsafe<{ state: string }[]>(`SELECT state::text FROM pgboss.job WHERE singleton_key = $1`, `run:${id}`);
    expect(jobs.map((j) => j.state)).toEqual(["created"]);

    await Promise.all(workers.map((w) => w.start(() => w.output.includes("[worker]"))));
    await waitFor(async () => (await messages(id)).at(-1)?.content === "answered by a worker", 30_000);
    expect(fake.getRequests().length).toBe(1);
  }, 120_000);

  it("finishes the run after a worker is SIGKILLed mid-run: each message delivered once, each event streamed once, in order", async () => {
    fake.clearRequests();
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "crash_mid", arguments: { task: "Organise" } }] } },
      // The manager starts a non-blocking leaf and works slowly meanwhile: its worker is killed during that tool.
      { when: { system_contains: manager, last_contains: "Organise" }, times: 1, respond: { tool_calls: [{ name: "crash_leaf", arguments: { task: "Dig" } }, { name: "slow", arguments: { ms: 4000 } }] } },
      { when: { system_contains: leaf, last_contains: "Dig" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "dug" } }] } },
      { when: { system_contains: manager, last_contains: "has returned the following result" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed: dug" } }] } },
      { when: { system_contains: boss, last_role: "tool" }, times: 1, respond: { content: "Everything is done." } },
    ]);
    const id = (await api(base, "POST", "/api/threads", { agent_id: "crash_boss" })).body.threadId as string;
    const topStream = watch(id);
    await new Promise((r) => setTimeout(r, 300));
    expect((await api(base, "POST", `/api/threads/${id}/messages`, { content: "start" })).status).toBe(202);

    // The manager runs its slow tool on some worker: kill that worker.
    const [mid] = await waitFor(async () => ((await children(id)).length ? children(id) : null), 30_000);
    const midStream = watch(mid.id);
    await waitFor(async () => fake.getRequests().some((r) => String(r.messages[0]!.content).includes(manager)), 30_000);
    const lease = await waitFor(() => prisma.lease.findUnique({ where: { key: `thread:${mid.id}` } }), 10_000);
    const victim = workers.find((w) => lease.owner.endsWith(`:${w.pid}`));
    expect(victim, `lease owner ${lease.owner}`).toBeDefined();
    await new Promise((r) => setTimeout(r, 500));
    await victim!.kill();
    // Killed inside the slow tool (it writes its marker file when it returns).
    expect((await fetch(`${base}/api/threads/${mid.id}/fs/slow-runs.txt`)).status).toBe(404);
    // Another worker takes the thread over once the dead worker's lease and job expire.
    await waitFor(async () => {
      const now = await prisma.lease.findUnique({ where: { key: `thread:${mid.id}` } });
      return now && now.owner !== lease.owner ? now : null;
    }, 30_000);

    const leafThread = await waitFor(async () => (await children(mid.id))[0], 30_000);
    const leafStream = watch(leafThread.id);
    await waitFor(async () => (await messages(id)).at(-1)?.content === "Everything is done.", 90_000);
    for (const t of [id, mid.id, leafThread.id]) {
      await waitFor(async () => ((await get(`/api/threads/${t}`)).thread.status !== "running" ? true : null), 30_000);
    }

    // Every message delivered exactly once, at every level.
    const top = await messages(id);
    expect(top.map((m) => `${m.role}:${m.name ?? ""}`)).toEqual(["user:", "assistant:", "tool:crash_mid", "assistant:"]);
    expect(top[2].content).toBe(`managed: dug\n\nReference: ${mid.id}`);
    const reports = (await messages(mid.id)).filter((m) => m.subagent_id === leafThread.id);
    expect(reports.map((m) => [m.silent, m.content])).toEqual([[true, `Subagent (reference: ${leafThread.id}) has returned the following result:\n\ndug`]]);
    expect((await children(id)).length).toBe(1);
    expect((await children(mid.id)).length).toBe(1);
    // The killed worker's slow tool never finished; the worker that took the thread over ran it once.
    expect(await slowRuns(mid.id)).toBe("1");
    expect(fake.getRequests().filter((r) => String(r.messages[0]!.content).includes(leaf)).length).toBe(1);

    // The SSE clients on the app process saw each thread's event log exactly: every event once, in order.
    await new Promise((r) => setTimeout(r, 1000));
    const persistence = createPersistence(prisma);
    for (const [threadId, stream] of [[id, topStream], [mid.id, midStream], [leafThread.id, leafStream]] as const) {
      expect(stream.error).toBeNull();
      const log = await persistence.events.after(threadId, 0, 100_000);
      expect(log.length).toBeGreaterThan(3);
      expect(stream.ids()).toEqual(log.map((e) => e.seq));
      expect(stream.events.filter((e) => e.id !== null).map((e) => e.data.type)).toEqual(log.map((e) => e.event.type));
    }
    expect(workers.filter((w) => w.running).length).toBe(2);
  }, 180_000);
});
