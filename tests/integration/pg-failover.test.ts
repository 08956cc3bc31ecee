import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/server/db/client";
import { startPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { testPostgresAdminUrl } from "@/server/db/test-postgres";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { NodeProcess } from "../helpers/node-process";
import { api, waitFor } from "../helpers/test-app";

/**
 * Failover in seconds on PostgreSQL: an API-only app and two worker processes with the default 30 s lease (so pg-boss
 * would hand a dead worker's job out again only after a minute). A worker SIGKILLed in the middle of a run has its
 * threads taken over by the other within 10 s, and the run finishes with every message once and the interrupted
 * tool run once more; a worker restarted after a kill takes its threads back as soon as it is up.
 */
const adminUrl = testPostgresAdminUrl();
const boss = "You are the crash boss.";
const manager = "You are the crash manager.";
const leaf = "You are the crash leaf.";

describe.skipIf(!adminUrl)("a killed worker's threads resume on another worker within seconds", () => {
  let cluster: PgCluster;
  let fake: FakeLlm;
  let prisma: PrismaClient;
  let env: Record<string, string>;
  let base = "";
  let workers: NodeProcess[] = [];

  beforeAll(async () => {
    fake = await startFakeLlm({ port: Number(process.env.TEST_LLM_PORT ?? 0) });
    cluster = await startPgCluster(adminUrl!, { name: "failover", modelUrl: fake.url, workers: 2 });
    ({ prisma, env, base, workers } = cluster);
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
    await fake?.close();
  });

  const get = async (p: string) => (await api(base, "GET", p)).body;
  const messages = async (id: string) => (await get(`/api/threads/${id}/messages?includeSilent=true`)).messages as any[];
  const children = async (id: string) => (await get(`/api/threads?parent_id=${id}&limit=100`)).threads as any[];
  const slowRuns = async (id: string) => (await fetch(`${base}/api/threads/${id}/fs/slow-runs.txt`)).text();
  const lease = (threadId: string) => prisma.lease.findUnique({ where: { key: `thread:${threadId}` } });
  /** Wait until another owner than `owner` holds the thread's lease; the time it took from `since`. */
  async function takenOver(threadId: string, owner: string, since: number): Promise<{ owner: string; ms: number }> {
    const now = await waitFor(async () => {
      const l = await lease(threadId);
      return l && l.owner !== owner ? l : null;
    }, 30_000);
    return { owner: now.owner, ms: performance.now() - since };
  }

  it("SIGKILL mid-run: the other worker takes the thread within 10 s; each message once, the cut tool run once more", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "crash_mid", arguments: { task: "Organise" } }] } },
      { when: { system_contains: manager, last_contains: "Organise" }, times: 1, respond: { tool_calls: [{ name: "crash_leaf", arguments: { task: "Dig" } }, { name: "slow", arguments: { ms: 6000 } }] } },
      { when: { system_contains: leaf, last_contains: "Dig" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "dug" } }] } },
      { when: { system_contains: manager, last_contains: "has returned the following result" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed: dug" } }] } },
      { when: { system_contains: boss, last_role: "tool" }, times: 1, respond: { content: "Everything is done." } },
    ]);
    const id = (await api(base, "POST", "/api/threads", { agent_id: "crash_boss" })).body.threadId as string;
    expect((await api(base, "POST", `/api/threads/${id}/messages`, { content: "start" })).status).toBe(202);
    const [mid] = await waitFor(async () => ((await children(id)).length ? children(id) : null), 30_000);
    await waitFor(async () => fake.getRequests().some((r) => String(r.messages[0]!.content).includes(manager)), 30_000);
    const held = await waitFor(() => lease(mid.id), 10_000);
    const victim = workers.find((w) => held.owner.endsWith(`:${w.pid}`));
    expect(victim, `lease owner ${held.owner}`).toBeDefined();
    // The leaf reports first (its answer is scripted once), then the manager's worker is killed inside its slow tool.
    const leafThread = await waitFor(async () => (await children(mid.id))[0], 30_000);
    await waitFor(async () => ((await get(`/api/threads/${leafThread.id}`)).thread.status !== "running" ? true : null), 30_000);
    await victim!.kill();
    const killedAt = performance.now();
    expect((await fetch(`${base}/api/threads/${mid.id}/fs/slow-runs.txt`)).status).toBe(404);

    const takeover = await takenOver(mid.id, held.owner, killedAt);
    console.log(`[failover] the thread was taken over ${Math.round(takeover.ms)} ms after the SIGKILL`);
    expect(takeover.ms).toBeLessThan(10_000);
    const survivor = workers.find((w) => w !== victim)!;
    expect(takeover.owner.endsWith(`:${survivor.pid}`)).toBe(true);

    await waitFor(async () => (await messages(id)).at(-1)?.content === "Everything is done.", 60_000);
    const top = await messages(id);
    expect(top.map((m) => `${m.role}:${m.name ?? ""}`)).toEqual(["user:", "assistant:", "tool:crash_mid", "assistant:"]);
    expect(top[2].content).toBe(`managed: dug\n\nReference: ${mid.id}`);
    const reports = (await messages(mid.id)).filter((m) => m.subagent_id === leafThread.id);
    expect(reports.length).toBe(1);
    expect((await children(id)).length).toBe(1);
    expect((await children(mid.id)).length).toBe(1);
    expect(await slowRuns(mid.id)).toBe("1");
    expect(fake.getRequests().filter((r) => String(r.messages[0]!.content).includes(leaf)).length).toBe(1);
  }, 180_000);

  it("a worker restarted after a SIGKILL takes its threads back as soon as it is up", async () => {
    fake.setScript([
      { when: { last_contains: "sleep on it" }, times: 1, respond: { tool_calls: [{ name: "slow", arguments: { ms: 3000 } }] } },
      { when: { last_role: "tool" }, times: 1, respond: { content: "slept" } },
    ]);
    const only = workers.find((w) => w.running)!;
    const id = (await api(base, "POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    await api(base, "POST", `/api/threads/${id}/messages`, { content: "sleep on it" });
    const held = await waitFor(() => lease(id), 20_000);
    await waitFor(async () => ((await messages(id)).some((m) => m.tool_calls?.length) ? true : null), 20_000);
    await only.kill();
    const restarted = new NodeProcess("worker 3", "scripts/worker.ts", env);
    workers.push(restarted);
    await restarted.start(() => restarted.output.includes("[worker]"));
    const up = performance.now();
    // Without a heartbeat for 6 s the lease would be taken anyway: the restarted process does not wait for that.
    const takeover = await takenOver(id, held.owner, up);
    console.log(`[failover] the restarted worker took its thread back ${Math.round(takeover.ms)} ms after it was up`);
    expect(takeover.ms).toBeLessThan(3000);
    await waitFor(async () => ((await messages(id)).at(-1)?.content === "slept" ? true : null), 30_000);
    expect(await slowRuns(id)).toBe("1");
  }, 120_000);
});
