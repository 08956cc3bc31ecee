import { describe, expect, it, vi } from "vitest";
import { StaleThreadError } from "@/server/runtime/errors";
import type { EventLog, MessageStore, NewMessage, ThreadStore } from "@/server/runtime/ports";
import type { PrismaClient } from "../client";
import { PrismaClient as PostgresPrismaClient } from "../generated/prisma-postgresql/client";
import { testPostgresAdminUrl } from "../test-postgres";
import { StateCache } from "../sqlite-direct/state-cache";
import { CHECKED_HISTORY, CHECKED_NEWER } from "./checks";
import type { Runner } from "./connection";
import { pgMessages } from "./messages";
import { PrismaBridge } from "./prisma-bridge";
import { pgEvents, pgThreads } from "./threads";
import { PgTransaction } from "./transactions";
import { templateDatabase } from "./test-pool";

/**
 * The held histories (history.ts) on a real database: a read takes the held rows on the thread row's stamp (its
 * version and event counter) without reading them, because any edit or delete of a stored message bumps the row's
 * version (the trigger of migration 20261128110000); this process's own commits move the stamp on. Whatever another
 * writer changes is read. PostgreSQL only (TEST_DATABASE_URL).
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("PostgreSQL held histories", () => {
  const db = templateDatabase(adminUrl!, "pghist");
  const states = new StateCache();
  const stores = (sql: Runner) => ({
    threads: pgThreads(sql, states, {} as ThreadStore),
    messages: pgMessages(sql, db.direct.history, {} as MessageStore),
    events: pgEvents(sql, {} as EventLog),
  });
  const message = (content: string): NewMessage => ({ role: "user", content, depth: 0 }) as NewMessage;
  const query = async (sql: string, ...args: unknown[]) => (await db.pool.query(sql, args)).rows;
  const read = async (id: string) => (await stores(db.direct).messages.list(id, { includeSilent: true })).map((m) => [m.seq, m.content]);
  /** How the next read goes: "stamped", "checked" or "whole". */
  const nextRead = async (id: string) => {
    const before = { ...db.direct.history.stats };
    const rows = await read(id);
    const after = db.direct.history.stats;
    const how = (["stamped", "checked", "whole"] as const).find((k) => after[k] > before[k]);
    return { how, rows };
  };
  let n = 0;
  const thread = async (messages: number) => {
    const id = `h${++n}`;
    await query(`INSERT INTO "Thread" ("id", "agentId", "rootAgentId", "updatedAt") VALUES ($1, 'a', 'a', now())`, id);
    for (let i = 1; i <= messages; i++) await stores(db.direct).messages.append(id, message(`m${i}`));
    return id;
  };
  const version = async (id: string) => Number((await query(`SELECT "version" FROM "Thread" WHERE "id" = $1`, id))[0].version);

  it("bumps the thread row's version once per statement that edits or deletes its messages, not for an append", async () => {
    const [a, b] = [await thread(3), await thread(2)];
    await query(`UPDATE "Message" SET "content" = 'x' WHERE "threadId" IN ($1, $2)`, a, b);
    expect([await version(a), await version(b)]).toEqual([1, 1]);
    await query(`DELETE FROM "Message" WHERE "threadId" = $1 AND "seq" = 1`, a);
    await query(`UPDATE "Message" SET "content" = 'y' WHERE "threadId" = $1 AND "seq" = 99`, b);
    expect([await version(a), await version(b)]).toEqual([2, 1]);
    await stores(db.direct).messages.append(a, message("new"));
    expect(await version(a)).toBe(2);
  });

  it("takes the held rows on the row's stamp, and reads what another writer appended, edited or deleted", async () => {
    const id = await thread(3);
    expect(await nextRead(id)).toEqual({ how: "whole", rows: [[1, "m1"], [2, "m2"], [3, "m3"]] });
    expect(await nextRead(id)).toEqual({ how: "stamped", rows: [[1, "m1"], [2, "m2"], [3, "m3"]] });
    // An append without an event (no change of the row): found after the last held seq.
    await query(`INSERT INTO "Message" ("id", "threadId", "seq", "role", "content", "createdAt", "updatedAt") VALUES ($1 || '-4', $1, 4, 'user', 'm4', 0, now())`, id);
    expect(await nextRead(id)).toEqual({ how: "stamped", rows: [[1, "m1"], [2, "m2"], [3, "m3"], [4, "m4"]] });
    // An edit: the row's version moved, the held rows are checked, found changed and read again.
    await query(`UPDATE "Message" SET "content" = 'edited', "updatedAt" = now() + interval '1 second' WHERE "threadId" = $1 AND "seq" = 2`, id);
    expect(await nextRead(id)).toEqual({ how: "whole", rows: [[1, "m1"], [2, "edited"], [3, "m3"], [4, "m4"]] });
    expect((await nextRead(id)).how).toBe("stamped");
    await query(`DELETE FROM "Message" WHERE "threadId" = $1 AND "seq" = 1`, id);
    expect(await nextRead(id)).toEqual({ how: "whole", rows: [[2, "edited"], [3, "m3"], [4, "m4"]] });
    // Another writer's event, no message touched: the held rows are checked, found the same, and stamped again.
    await query(`UPDATE "Thread" SET "eventSeq" = "eventSeq" + 1 WHERE "id" = $1`, id);
    expect((await nextRead(id)).how).toBe("checked");
    expect((await nextRead(id)).how).toBe("stamped");
  });

  it("moves the stamp on with this process's own commits, unless the transaction ran Prisma queries", async () => {
    const id = await thread(1);
    await read(id);
    for (const optimistic of [false, true]) {
      await stores(db.direct).threads.get(id);
      const t = new PgTransaction(db.direct, new PrismaBridge(db.pool), optimistic);
      const s = stores(t);
      await s.threads.get(id);
      await s.messages.append(id, message(`answer ${optimistic}`));
      await s.threads.update(id, { name: "stepped" });
      await s.events.append(id, { type: "x.step" } as never);
      await t.commit();
      expect(await nextRead(id)).toEqual({ how: "stamped", rows: expect.arrayContaining([[1, "m1"]]) as unknown });
    }
    expect(await read(id)).toEqual([[1, "m1"], [2, "answer false"], [3, "answer true"]]);
    // An edit through Prisma in this process's transaction: the row moved, nothing vouches for the held rows.
    const bridge = new PrismaBridge(db.pool);
    const client = new PostgresPrismaClient({ adapter: bridge.factory() }) as unknown as PrismaClient;
    bridge.attach(client);
    const t = new PgTransaction(db.direct, bridge, false);
    const before = await version(id);
    try {
      await stores(t).threads.get(id);
      const prisma = await t.prisma();
      await prisma.message.updateMany({ where: { threadId: id, seq: 1 }, data: { content: "via prisma" } });
      // The row read again after it (as after a Prisma store's write of the row) has the version the edit bumped:
      // the rows alone cannot tell that a message changed.
      t.forgetLocked(id);
      expect((await stores(t).threads.get(id))?.version).toBe(before + 1);
      await t.commit();
    } finally {
      await client.$disconnect();
    }
    expect(await nextRead(id)).toEqual({ how: "whole", rows: [[1, "via prisma"], [2, "answer false"], [3, "answer true"]] });
  });

  it("checks only for newer messages in a transaction that locks the row the held rows were stamped with", async () => {
    const id = await thread(2);
    await read(id);
    const config = vi.spyOn(db.direct, "config");
    const body = async (t: PgTransaction) => {
      const s = stores(t);
      await s.threads.get(id);
      const after = await s.messages.list(id, { afterSeq: 1, includeSilent: true });
      await s.threads.update(id, { name: "checked" });
      return after.map((m) => m.seq);
    };
    try {
      await stores(db.direct).threads.get(id);
      const t = new PgTransaction(db.direct, new PrismaBridge(db.pool), true);
      expect(await body(t)).toEqual([2]);
      await t.commit();
      expect(config.mock.calls.some(([sql]) => sql === CHECKED_NEWER)).toBe(true);
      expect(config.mock.calls.some(([sql]) => sql === CHECKED_HISTORY)).toBe(false);
      // A message another writer appended (no change of the row) fails it, storing nothing.
      await query(`INSERT INTO "Message" ("id", "threadId", "seq", "role", "content", "createdAt", "updatedAt") VALUES ($1 || '-3', $1, 3, 'user', 'm3', 0, now())`, id);
      const stale = new PgTransaction(db.direct, new PrismaBridge(db.pool), true);
      expect(await body(stale)).toEqual([2]);
      expect(await stale.commit().catch((err: unknown) => err)).toBeInstanceOf(StaleThreadError);
    } finally {
      config.mockRestore();
    }
  });
});
