import { describe, expect, it } from "vitest";
import { StaleThreadError } from "@/server/runtime/errors";
import type { EventLog, MessageStore, NewMessage, ThreadStore } from "@/server/runtime/ports";
import { testPostgresAdminUrl } from "../test-postgres";
import { StateCache } from "../sqlite-direct/state-cache";
import type { Runner } from "./connection";
import { PgHistoryCache } from "./history";
import { pgMessages } from "./messages";
import { PrismaBridge } from "./prisma-bridge";
import { pgEvents, pgThreads } from "./threads";
import { PgTransaction } from "./transactions";
import { templateDatabase } from "./test-pool";

/**
 * Optimistic transactions (known-threads.ts, checks.ts) on a real database: a thread this process knows is locked
 * with a check instead of a read, its messages appended with their seqs given, the history after a seq taken from
 * memory, so nothing waits for an answer before the COMMIT; and whatever another writer changed meanwhile fails the
 * transaction with `StaleThreadError`, committing nothing. PostgreSQL only (TEST_DATABASE_URL).
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("PostgreSQL optimistic transactions", () => {
  const db = templateDatabase(adminUrl!, "pgopt");
  const states = new StateCache();
  const history = new PgHistoryCache();
  const stores = (sql: Runner) => ({
    threads: pgThreads(sql, states, {} as ThreadStore),
    messages: pgMessages(sql, history, {} as MessageStore),
    events: pgEvents(sql, {} as EventLog),
  });
  const message = (content: string): NewMessage => ({ role: "user", content, depth: 0 }) as NewMessage;
  const query = async (sql: string, ...args: unknown[]) => (await db.pool.query(sql, args)).rows;
  let n = 0;
  /** A thread with one message, read as a step's pass reads it (its row and history then known). */
  const known = async () => {
    const id = `t${++n}`;
    await query(`INSERT INTO "Thread" ("id", "agentId", "rootAgentId", "updatedAt") VALUES ($1, 'a', 'a', now())`, id);
    const s = stores(db.direct);
    await s.messages.append(id, message("hello"));
    await s.threads.get(id);
    await s.messages.list(id, { includeSilent: true });
    return id;
  };
  /** Another connection holding the thread's row lock until `release` (with `change` run first, if given). */
  const holdLock = async (id: string) => {
    const other = await db.pool.connect();
    await other.query("BEGIN");
    await other.query(`SELECT 1 FROM "Thread" WHERE "id" = $1 FOR UPDATE`, [id]);
    return async (change?: string) => {
      if (change) await other.query(change, [id]);
      await other.query("COMMIT");
      other.release();
    };
  };
  /** A transaction body that must finish while another connection holds the row: it waits for no answer. */
  const withinSecond = <T>(p: Promise<T>) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the body waited for the database")), 1000))]);
  const body = async (id: string, t: PgTransaction) => {
    const s = stores(t);
    const thread = await s.threads.get(id);
    const appended = await s.messages.append(id, message("answer"));
    const after = await s.messages.list(id, { afterSeq: 1, includeSilent: true });
    const updated = await s.threads.update(id, { name: "stepped" });
    const event = await s.events.append(id, { type: "x.step" } as never);
    return { thread, appended, after, updated, event };
  };

  it("waits for no answer before the commit, and stores what a read-and-lock transaction would", async () => {
    const id = await known();
    const release = await holdLock(id);
    const t = new PgTransaction(db.direct, new PrismaBridge(db.pool), true);
    const r = await withinSecond(body(id, t));
    expect(r.thread?.version).toBe(0);
    expect(r.appended.seq).toBe(2);
    expect(r.after.map((m) => [m.seq, m.content])).toEqual([[2, "answer"]]);
    expect(r.updated.version).toBe(1);
    expect(r.event.seq).toBe(1);
    await release();
    await t.commit();
    expect(await query(`SELECT "seq", "content" FROM "Message" WHERE "threadId" = $1 ORDER BY "seq"`, id)).toEqual([
      { seq: 1, content: "hello" },
      { seq: 2, content: "answer" },
    ]);
    expect(await query(`SELECT "version", "eventSeq", "name" FROM "Thread" WHERE "id" = $1`, id)).toEqual([{ version: 1, eventSeq: 1, name: "stepped" }]);
    // What it committed is known: the next one goes without a read too.
    const next = new PgTransaction(db.direct, new PrismaBridge(db.pool), true);
    const s = stores(next);
    expect((await s.threads.get(id))?.version).toBe(1);
    expect((await s.messages.append(id, message("again"))).seq).toBe(3);
    await next.commit();
    expect(await query(`SELECT MAX("seq") AS "seq" FROM "Message" WHERE "threadId" = $1`, id)).toEqual([{ seq: 3 }]);
  });

  it("reads a row its own transaction wrote through Prisma's stores, and commits", async () => {
    const id = await known();
    const t = new PgTransaction(db.direct, new PrismaBridge(db.pool), true);
    const s = stores(t);
    expect((await s.threads.get(id))?.version).toBe(0);
    // What a Prisma store's write of the row does here (pgThreadLock's `wrote`): the held row is stale.
    await t.run(`UPDATE "Thread" SET "name" = 'prisma', "version" = "version" + 1 WHERE "id" = ?`, id);
    t.forgetLocked(id);
    const fresh = await s.threads.get(id);
    expect([fresh?.version, fresh?.name]).toEqual([1, "prisma"]);
    expect((await s.messages.append(id, message("after"))).seq).toBe(2);
    await t.commit();
    expect(await query(`SELECT "version", "name" FROM "Thread" WHERE "id" = $1`, id)).toEqual([{ version: 1, name: "prisma" }]);
  });

  it.each([
    ["a write of the thread's row", `UPDATE "Thread" SET "stopRequestedAt" = 1, "version" = "version" + 1 WHERE "id" = $1`],
    ["an event appended", `UPDATE "Thread" SET "eventSeq" = "eventSeq" + 1 WHERE "id" = $1`],
    ["a message appended", `INSERT INTO "Message" ("id", "threadId", "seq", "role", "createdAt", "updatedAt") VALUES ($1 || '-m', $1, 2, 'user', 0, now())`],
    ["a message edited", `UPDATE "Message" SET "content" = 'edited', "updatedAt" = now() + interval '1 second' WHERE "threadId" = $1`],
  ])("fails with StaleThreadError, storing nothing, after %s by another writer; then reads", async (_what, change) => {
    const id = await known();
    const before = await query(`SELECT "version", "eventSeq" FROM "Thread" WHERE "id" = $1`, id);
    const release = await holdLock(id);
    const t = new PgTransaction(db.direct, new PrismaBridge(db.pool), true);
    const done = withinSecond(body(id, t));
    await release(change);
    await done;
    const failed = await t.commit().catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(StaleThreadError);
    expect(await query(`SELECT COUNT(*)::int AS "n" FROM "Message" WHERE "threadId" = $1 AND "content" = 'answer'`, id)).toEqual([{ n: 0 }]);
    expect(await query(`SELECT COUNT(*)::int AS "n" FROM "ThreadEvent" WHERE "threadId" = $1`, id)).toEqual([{ n: 0 }]);
    const after = await query(`SELECT "version", "eventSeq" FROM "Thread" WHERE "id" = $1`, id);
    expect(after).not.toEqual([{ version: before[0].version + 1, eventSeq: 1 }]);
    // The failure forgot the thread: run again (optimistic still), it locks and reads, and commits.
    const again = new PgTransaction(db.direct, new PrismaBridge(db.pool), true);
    const r = await body(id, again);
    await again.commit();
    expect(r.thread?.version).toBe(after[0].version);
    expect(r.appended.seq).toBe(Number((await query(`SELECT MAX("seq") AS "seq" FROM "Message" WHERE "threadId" = $1`, id))[0].seq));
  });
});
