import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import type { Stores } from "@/server/runtime/ports";
import { directSqliteOf } from "../client";
import { envStore } from "../repositories/env-files";
import { queueStore } from "../repositories/messages";
import { subagentStore } from "../repositories/subagents";
import { threadStore } from "../repositories/threads";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";
import { withDirectSqlite } from "./index";

/**
 * The direct statements of thread creation and of the registry's writes (every spawn and report) store what Prisma's
 * repositories store, and keep the stamped caches current without Prisma moving the stamp.
 */
let db: TestDatabase;
let prismaSide: Pick<Stores, "threads" | "queue" | "env" | "subagents">;
let direct: typeof prismaSide;
let sql: NonNullable<ReturnType<typeof directSqliteOf>>;

/** `fn` ran on the connection directly: a write through Prisma would have moved the stamp. */
async function direct_<T>(fn: () => Promise<T>): Promise<T> {
  const before = sql.stamp();
  const value = await fn();
  expect(sql.stamp()).toBe(before);
  return value;
}

const entryFor = (parentId: string, childId: string, over: Record<string, unknown> = {}) => ({
  parentId,
  childId,
  name: "kid",
  title: "Kid",
  description: "d",
  resumable: false,
  blocking: true,
  threadName: "k1",
  spawnGroupId: "g",
  status: "running",
  parentCommunication: "implicit" as const,
  toolName: "t",
  toolCallId: "call_1",
  createdAt: 1_790_000_000_000_001,
  ...over,
});

describe.runIf(testDatabaseKind() === "sqlite")("direct SQLite statements of creation and the registry", () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    const p = db.prisma;
    prismaSide = { threads: threadStore(p), queue: queueStore(p), env: envStore(p), subagents: subagentStore(p) };
    await p.$queryRaw`SELECT 1`; // Prisma opens its connection on its first query
    sql = directSqliteOf(p)!;
    direct = Object.fromEntries(
      Object.entries(prismaSide).map(([k, base]) => [k, withDirectSqlite(sql, k as keyof Stores, base as never, false)]),
    ) as typeof prismaSide;
  });
  afterAll(() => db?.cleanup());

  it("create threads that Prisma reads back as the record returned (defaults, JSON columns, times)", async () => {
    const state = { ...initialThreadState(), turn: { side: "b" as const, active: true, steps: 0, startSeq: 0 } };
    const parent = await direct_(() => direct.threads.create({ agentId: "agent", state }));
    expect(await prismaSide.threads.get(parent.id)).toEqual(parent);
    expect(parent).toMatchObject({ status: "idle", tags: [], name: null, parentId: null, version: 0, rootAgentId: "agent", state });
    const child = await direct.threads.create({ agentId: "kid", parentId: parent.id, tags: ["name:x"], name: "x", status: "running", state });
    expect(await prismaSide.threads.get(child.id)).toEqual(child);
    expect(await direct.threads.get(child.id)).toEqual(child);
    const viaPrisma = await prismaSide.threads.create({ agentId: "agent", state });
    // The same columns as Prisma's own create, but the id and the times.
    const strip = (t: object) => ({ ...t, id: "", createdAt: 0, updatedAt: 0, lastActivityAt: 0 });
    expect(strip(parent)).toEqual(strip(viaPrisma));
    await expect(direct.threads.create({ id: parent.id, agentId: "agent", state })).rejects.toMatchObject({ code: "P2002" });
  });

  it("list env values of a scope as Prisma does (sorted by code unit)", async () => {
    const t = await direct.threads.create({ agentId: "agent", state: initialThreadState() });
    await prismaSide.env.set("thread", t.id, "b", "text", "1");
    await prismaSide.env.set("thread", t.id, "B", "secret", "enc");
    await prismaSide.env.set("thread", t.id, "a-b", "text", "2");
    await prismaSide.env.set("instance", "instance", "I", "text", "3");
    for (const [scope, owner] of [["thread", t.id], ["instance", "instance"], ["user", "nobody"]] as const)
      expect(await direct_(() => direct.env.list(scope, owner))).toEqual(await prismaSide.env.list(scope, owner));
    expect((await direct.env.list("thread", t.id)).map((r) => r.name)).toEqual(["B", "a-b", "b"]);
  });

  it("create, find and update registry entries as Prisma does, the parent's cached list following", async () => {
    const parent = await direct.threads.create({ agentId: "agent", state: initialThreadState() });
    const kids = await Promise.all([1, 2].map(() => direct.threads.create({ agentId: "kid", parentId: parent.id, state: initialThreadState() })));
    expect(await direct.subagents.listByParent(parent.id)).toEqual([]); // cached empty
    const first = await direct_(() => direct.subagents.create(entryFor(parent.id, kids[0]!.id)));
    expect(await prismaSide.subagents.get(kids[0]!.id)).toEqual(first);
    expect(await direct.subagents.listByParent(parent.id)).toEqual([first]);
    await direct.subagents.create(entryFor(parent.id, kids[1]!.id, { toolCallId: null, resumable: true, blocking: false, title: null, createdAt: 1_790_000_000_000_002 }));
    expect(await direct.subagents.listByParent(parent.id)).toEqual(await prismaSide.subagents.listByParent(parent.id));
    expect(await direct_(() => direct.subagents.byToolCall(parent.id, "call_1"))).toEqual(first);
    expect(await direct.subagents.byToolCall(parent.id, "call_2")).toBeNull();

    const reportedAt = new Date(Date.now() - 1000);
    const updated = await direct_(() => direct.subagents.update(kids[0]!.id, { status: "terminated", reportedAt, blocking: false, toolCallId: null }));
    expect(updated).toMatchObject({ status: "terminated", reportedAt, blocking: false, toolCallId: null });
    expect(await prismaSide.subagents.get(kids[0]!.id)).toEqual(updated);
    expect(await direct.subagents.listByParent(parent.id)).toEqual(await prismaSide.subagents.listByParent(parent.id));
    // What a read hands out is the caller's: changing it changes nothing held.
    (await direct.subagents.listByParent(parent.id))[0]!.status = "changed";
    expect(await direct.subagents.listByParent(parent.id)).toEqual(await prismaSide.subagents.listByParent(parent.id));
    await expect(direct.subagents.create(entryFor(parent.id, kids[0]!.id))).rejects.toMatchObject({ code: "P2002" });
    await expect(direct.subagents.update("nope", { status: "idle" })).rejects.toThrow();
  });

  it("reject a thread's pending queue, the cached pending list following", async () => {
    const t = await direct.threads.create({ agentId: "agent", state: initialThreadState() });
    await direct.queue.enqueue(t.id, { role: "user", content: "q1" });
    const q2 = await direct.queue.enqueue(t.id, { role: "user", content: "q2" });
    await direct.queue.markDelivered(q2.id, "m1");
    expect((await direct.queue.pending(t.id)).length).toBe(1); // cached
    expect(await direct_(() => direct.queue.rejectPending(t.id))).toBe(1);
    expect(await direct.queue.pending(t.id)).toEqual([]);
    expect(await prismaSide.queue.pending(t.id)).toEqual([]);
    expect(await direct.queue.rejectPending(t.id)).toBe(0);
  });
});
