import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import type { Persistence } from "@/server/runtime/ports";
import { envCacheOf } from "../cached-env";
import { createPrismaClient, type PrismaClient } from "../client";
import { EnvCache } from "../env-cache";
import { createPersistence } from "../persistence";
import { userQueries } from "../queries/users";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";
import { listenForWork, type WorkNotifications } from "./work-notifications";

/**
 * Two processes on one PostgreSQL database: a worker caches the env its threads see (kept a minute while it listens)
 * and hears of every env write another process makes, so its next read has the new value at once.
 */
describe.skipIf(testDatabaseKind() !== "postgresql")("env writes of one process invalidate another's cached env (PostgreSQL)", () => {
  let db: TestDatabase;
  let workerPrisma: PrismaClient;
  let api: Persistence;
  let worker: Persistence;
  let listening: WorkNotifications;

  beforeAll(async () => {
    db = await createTestDatabase();
    workerPrisma = createPrismaClient(db.target);
    api = createPersistence(db.prisma);
    worker = createPersistence(workerPrisma);
    listening = await listenForWork(db.url, () => {}, undefined, undefined, envCacheOf(workerPrisma).listener());
  });
  afterAll(async () => {
    await listening?.close();
    await workerPrisma?.$disconnect();
    await db?.cleanup();
  });

  const seen = async (threadId: string, userId: string | null, name: string) => {
    const env = await worker.env.visible(threadId, userId);
    return [...env.thread, ...env.user, ...env.instance].find((v) => v.name === name)?.value;
  };
  async function within(ms: number, ok: () => Promise<boolean>): Promise<number> {
    const t0 = Date.now();
    while (!(await ok())) {
      if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return Date.now() - t0;
  }

  it("a thread, user or instance value set or deleted elsewhere is seen on the worker's next read", async () => {
    const user = await userQueries(db.prisma).create({ username: `env-notify-${Date.now()}`, role: "user", passwordHash: "x" });
    const t = await api.threads.create({ agentId: "a", userId: user.id, state: initialThreadState() });
    await api.env.set("thread", t.id, "TONE", "text", "calm");
    // Read and cached (a listening worker keeps it for a minute, once the set's own notification has come by): only
    // the next write's notification makes that write show.
    const cached = () => envCacheOf(workerPrisma).peek(`${t.id}\n${user.id}`) !== undefined;
    await within(2000, async () => (await seen(t.id, user.id, "TONE")) === "calm" && cached());
    await api.env.set("thread", t.id, "TONE", "text", "brisk");
    await within(2000, async () => (await seen(t.id, user.id, "TONE")) === "brisk");
    await api.env.set("user", user.id, "CITY", "text", "Lyon");
    await within(2000, async () => (await seen(t.id, user.id, "CITY")) === "Lyon");
    await api.env.set("instance", "instance", "REGION", "text", "eu");
    await within(2000, async () => (await seen(t.id, user.id, "REGION")) === "eu");
    await api.env.delete("thread", t.id, "TONE");
    await within(2000, async () => (await seen(t.id, user.id, "TONE")) === undefined);
    // A write inside a transaction is announced with its commit.
    await api.transaction((tx) => tx.env.set("instance", "instance", "REGION", "text", "us"));
    await within(2000, async () => (await seen(t.id, user.id, "REGION")) === "us");
    await api.env.delete("instance", "instance", "REGION");
  });

  it("an account removed elsewhere takes its variables out of the worker's cache", async () => {
    const users = userQueries(db.prisma);
    const user = await users.create({ username: `env-gone-${Date.now()}`, role: "user", passwordHash: "x" });
    await api.env.set("user", user.id, "CITY", "text", "Oslo");
    const t = "thread-without-row";
    await within(2000, async () => (await seen(t, user.id, "CITY")) === "Oslo");
    await users.remove(user.id);
    await within(2000, async () => (await seen(t, user.id, "CITY")) === undefined);
  });

  it("while the listener is closed the worker reads again after a second", async () => {
    const cache = new EnvCache();
    cache.notified(true);
    await cache.get("k", async () => ({ thread: [], user: [], instance: [] }));
    expect(cache.peek("k")).toBeDefined();
    cache.notified(false);
    expect(cache.peek("k")).toBeUndefined();
  });
});
