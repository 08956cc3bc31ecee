import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewMessage, Stores } from "@/server/runtime/ports";
import { StateCache } from "../sqlite-direct/state-cache";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "../test-postgres";
import { DirectPg } from "./connection";
import { PgHistoryCache } from "./history";
import { withDirectPg, type PgCaches } from "./index";
import { PrismaBridge } from "./prisma-bridge";
import { PgTransaction } from "./transactions";

/**
 * The start-of-step reads sent with a stepping thread's read (prefetch.ts), on a real database: they are used (a row
 * another connection adds after the thread's read is not in them), and a write of this process drops them (its rows
 * are always read back). PostgreSQL only (TEST_DATABASE_URL).
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("PostgreSQL prefetched step reads", () => {
  const name = uniqueDatabaseName("pgpre");
  let pool: pg.Pool;
  let direct: DirectPg;
  let caches: PgCaches;
  let n = 0;
  const root = <K extends keyof Stores>(key: K, base: Partial<Stores[K]> = {}) => withDirectPg(direct, caches, key, base as Stores[K]);
  const inTx = <K extends keyof Stores>(t: PgTransaction, key: K) => withDirectPg(t, caches, key, {} as Stores[K]);
  const message = (content: string): NewMessage => ({
    role: "user",
    content,
    name: null,
    toolCalls: null,
    toolCallId: null,
    toolStatus: null,
    reasoningContent: null,
    attachments: null,
    silent: false,
    depth: 0,
    side: null,
    metadata: null,
    subagentId: null,
  });
  const queued = async (threadId: string, seq: number, content: string) =>
    pool.query(`INSERT INTO "QueuedMessage" ("id", "threadId", "seq", "role", "content") VALUES ($1, $2, $3, 'user', $4)`, [`q${++n}`, threadId, seq, content]);
  /** A thread stepping here: its history read once, so its next read takes the step's reads with it. */
  const stepping = async () => {
    const id = `t${++n}`;
    await pool.query(`INSERT INTO "Thread" ("id", "agentId", "rootAgentId", "updatedAt") VALUES ($1, 'a', 'a', now())`, [id]);
    const t = new PgTransaction(direct, new PrismaBridge(pool));
    await inTx(t, "messages").append(id, message("first"));
    await t.commit();
    await root("messages").list(id, { includeSilent: true });
    return id;
  };

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await createDatabase(adminUrl!, name, process.env.TEST_DATABASE_TEMPLATE), max: 4, pipeline: true } as pg.PoolConfig);
    direct = new DirectPg(pool);
    caches = { states: new StateCache(), history: new PgHistoryCache() };
    if (!process.env.TEST_DATABASE_TEMPLATE) throw new Error("needs the migrated template (tests/helpers/postgres-template.ts)");
  });
  afterAll(async () => {
    await pool?.end();
    await dropDatabase(adminUrl!, name);
  });

  it("reads the queue, the history and the registry with the thread, once", async () => {
    const id = await stepping();
    expect((await root("threads").get(id))?.id).toBe(id);
    // Another process's writes after the thread's read: the prefetched reads were taken before them.
    await queued(id, 1, "later");
    await pool.query(`INSERT INTO "Message" ("id", "threadId", "seq", "role", "content", "createdAt", "updatedAt") VALUES ($1, $2, 2, 'user', 'later', 1, now())`, [`m${++n}`, id]);
    expect(await root("queue").pending(id)).toEqual([]);
    expect((await root("messages").list(id, { includeSilent: true })).map((m) => m.content)).toEqual(["first"]);
    expect(await root("subagents").listByParent(id)).toEqual([]);
    // Handed out once: the next reads are fresh.
    expect((await root("queue").pending(id)).map((q) => q.content)).toEqual(["later"]);
    expect((await root("messages").list(id, { includeSilent: true })).map((m) => m.content)).toEqual(["first", "later"]);
  });

  it("drops them when this process writes the thread's rows in a transaction", async () => {
    const id = await stepping();
    await root("threads").get(id);
    const t = new PgTransaction(direct, new PrismaBridge(pool));
    await inTx(t, "messages").append(id, message("delivered"));
    await t.commit();
    expect((await root("messages").list(id, { includeSilent: true })).map((m) => m.content)).toEqual(["first", "delivered"]);
  });

  it("drops them when a store method they do not know of runs outside a transaction", async () => {
    const id = await stepping();
    await root("threads").get(id);
    const queue = root("queue", { enqueue: (async () => void (await queued(id, 1, "posted"))) as never });
    await (queue as unknown as { enqueue(): Promise<void> }).enqueue();
    expect((await queue.pending(id)).map((q) => q.content)).toEqual(["posted"]);
  });
});
