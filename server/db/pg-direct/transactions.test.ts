import { describe, expect, it } from "vitest";
import type { EventLog, MessageRecord } from "@/server/runtime/ports";
import { testPostgresAdminUrl } from "../test-postgres";
import { PrismaBridge } from "./prisma-bridge";
import { pgThreads, pgEvents } from "./threads";
import { pgToolCallRuns } from "./registry-logs";
import { StateCache } from "../sqlite-direct/state-cache";
import type { ThreadStore, ToolCallRunStore } from "@/server/runtime/ports";
import { PgTransaction } from "./transactions";
import { templateDatabase } from "./test-pool";

/**
 * The pipelined parts of a PostgreSQL step transaction (transactions.ts, the checked event append of threads.ts), on a
 * real database: what they save must not change what commits. PostgreSQL only (TEST_DATABASE_URL).
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("PostgreSQL step transactions", () => {
  const db = templateDatabase(adminUrl!, "pgtx");
  const tx = () => new PgTransaction(db.direct, new PrismaBridge(db.pool));
  const events = (t: PgTransaction) => pgEvents(t, {} as EventLog);
  const count = async (sql: string, ...args: unknown[]) => Number((await db.pool.query(sql, args)).rows[0].n);
  const eventSeq = async (id: string) => Number((await db.pool.query(`SELECT "eventSeq" FROM "Thread" WHERE "id" = $1`, [id])).rows[0].eventSeq);
  let n = 0;
  const thread = async () => {
    const id = `t${++n}`;
    await db.pool.query(`INSERT INTO "Thread" ("id", "agentId", "rootAgentId", "updatedAt") VALUES ($1, 'a', 'a', now())`, [id]);
    return id;
  };

  it("appends events on a locked thread without waiting, with the seqs the database reserves", async () => {
    const id = await thread();
    const t = tx();
    await t.lockQueued(id);
    const first = await events(t).appendMany(id, [{ type: "x.one" } as never, { type: "x.two" } as never]);
    const second = await events(t).append(id, { type: "x.three" } as never);
    await t.commit();
    expect([...first.map((e) => e.seq), second.seq]).toEqual([1, 2, 3]);
    expect(await eventSeq(id)).toBe(3);
    expect((await db.pool.query(`SELECT "seq", "type" FROM "ThreadEvent" WHERE "threadId" = $1 ORDER BY "seq"`, [id])).rows).toEqual([
      { seq: 1, type: "x.one" },
      { seq: 2, type: "x.two" },
      { seq: 3, type: "x.three" },
    ]);
  });

  it("fails the commit, storing nothing, when the counter is not the one the held row says", async () => {
    const id = await thread();
    const t = tx();
    await t.lock(id);
    // A write of the counter the held row does not know of (no store does this; the check is the guard if one did).
    await t.run(`UPDATE "Thread" SET "eventSeq" = "eventSeq" + 5 WHERE "id" = ?`, id);
    const appended = await events(t).append(id, { type: "x.lost" } as never);
    expect(appended.seq).toBe(1);
    await expect(t.commit()).rejects.toThrow(/event seq 6 not expected/);
    expect(await eventSeq(id)).toBe(0);
    expect(await count(`SELECT COUNT(*) AS n FROM "ThreadEvent" WHERE "threadId" = $1`, id)).toBe(0);
  });

  it("runs a transaction of one write alone, and not at all when it rolls back", async () => {
    const id = await thread();
    const log = `INSERT INTO "Lease" ("key", "owner", "expiresAt", "updatedAt") VALUES (?, ?, now(), now())`;
    const kept = tx();
    await kept.write(log, `${id}-1`, id);
    await kept.commit();
    const dropped = tx();
    await dropped.write(log, `${id}-2`, id);
    await dropped.rollback(new Error("the body threw"));
    expect(await count(`SELECT COUNT(*) AS n FROM "Lease" WHERE "owner" = $1`, id)).toBe(1);
    // Its failure is the commit's, mapped like any unique violation.
    const again = tx();
    await again.write(log, `${id}-1`, id);
    await expect(again.commit()).rejects.toMatchObject({ code: "P2002" });
  });

  it("sends a transaction of one write without waiting for its answer, which says whether it was stored", async () => {
    const id = await thread();
    const log = `INSERT INTO "Lease" ("key", "owner", "expiresAt", "updatedAt") VALUES (?, ?, now(), now())`;
    const sent = tx();
    await sent.write(log, `${id}-sent`, id);
    const { answered } = await sent.commitSent();
    await answered;
    expect(await count(`SELECT COUNT(*) AS n FROM "Lease" WHERE "owner" = $1`, id)).toBe(1);
    // Its failure comes with the answer, mapped like any unique violation; the connection serves on.
    const again = tx();
    await again.write(log, `${id}-sent`, id);
    const second = await again.commitSent();
    await expect(second.answered).rejects.toMatchObject({ code: "P2002" });
    const after = tx();
    await after.write(log, `${id}-after`, id);
    await (await after.commitSent()).answered;
    expect(await count(`SELECT COUNT(*) AS n FROM "Lease" WHERE "owner" = $1`, id)).toBe(2);
    // A transaction of more than that commits as `commit` does: stored once it resolves.
    const whole = tx();
    await whole.lock(id);
    await whole.write(`UPDATE "Thread" SET "name" = ? WHERE "id" = ?`, "whole", id);
    await (await whole.commitSent()).answered;
    expect((await db.pool.query(`SELECT "name" FROM "Thread" WHERE "id" = $1`, [id])).rows[0].name).toBe("whole");
  });

  it("updates a locked thread without waiting: the record is the row the database then holds", async () => {
    const id = await thread();
    const states = new StateCache();
    const t = tx();
    const threads = pgThreads(t, states, {} as ThreadStore);
    const before = await threads.get(id);
    const state = { ...before!.state, activationSteps: 7 };
    const updated = await threads.update(id, { state, status: "running" });
    expect(await threads.get(id)).toEqual(updated);
    await t.commit();
    const stored = await pgThreads(db.direct, new StateCache(), {} as ThreadStore).get(id);
    expect(updated).toEqual(stored);
    expect(updated.version).toBe(before!.version + 1);
    // The state's text as stored is the one kept parsed: the next read maps the same object.
    expect((await pgThreads(db.direct, states, {} as ThreadStore).get(id))!.state).toBe(updated.state);
  });

  it("fails the commit, storing nothing, when the locked thread's update finds no row", async () => {
    const id = await thread();
    const t = tx();
    const threads = pgThreads(t, new StateCache(), {} as ThreadStore);
    await threads.get(id);
    await t.run(`DELETE FROM "Thread" WHERE "id" = ?`, id);
    await threads.update(id, { status: "running" });
    await expect(t.commit()).rejects.toThrow(/no thread row/);
    expect(await count(`SELECT COUNT(*) AS n FROM "Thread" WHERE "id" = $1`, id)).toBe(1);
  });

  it("counts the first attempt of a call of a message appended in the transaction without waiting, checked", async () => {
    const id = await thread();
    const runs = (t: PgTransaction) => pgToolCallRuns(t, {} as ToolCallRunStore);
    const m = `m-${id}`;
    const t = tx();
    await t.run(`INSERT INTO "Message" ("id", "threadId", "seq", "role", "createdAt", "updatedAt") VALUES (?, ?, 1, 'assistant', 0, now())`, m, id);
    const appended = { id: m, threadId: id, seq: 1 } as MessageRecord;
    t.noteAppended(appended);
    expect(await runs(t).start(m, "c1")).toBe(1);
    await t.commit();
    expect(await count(`SELECT "attempts" AS n FROM "ToolCallRun" WHERE "messageId" = $1`, m)).toBe(1);
    // A second attempt found where the first was expected fails the commit (no store does this; the check guards).
    const again = tx();
    again.noteAppended(appended);
    expect(await runs(again).start(m, "c1")).toBe(1);
    await expect(again.commit()).rejects.toThrow(/tool call attempt 2 not expected/);
    // Otherwise the count comes from the database.
    const later = tx();
    expect(await runs(later).start(m, "c1")).toBe(2);
    await later.commit();
  });

  it("a write held first still goes out, in order, once the transaction has more", async () => {
    const id = await thread();
    const t = tx();
    await t.write(`UPDATE "Thread" SET "name" = ? WHERE "id" = ?`, "renamed", id);
    const row = await t.lock(id);
    expect(row?.name).toBe("renamed");
    await t.rollback(new Error("undo"));
    expect((await db.pool.query(`SELECT "name" FROM "Thread" WHERE "id" = $1`, [id])).rows[0].name).toBeNull();
  });
});
