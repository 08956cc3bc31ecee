/** The visible env is read from a cache between writes, and never answers with a value the database no longer holds. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Persistence } from "@/server/runtime/ports";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import { createPrismaClient } from "./client";
import { createPersistence } from "./persistence";
import { createTestDatabase, type TestDatabase } from "./test-database";

let db: TestDatabase;
let p: Persistence;

const names = async (threadId: string) => {
  const v = await p.env.visible(threadId, null);
  return [...v.thread, ...v.instance].map((r) => `${r.name}=${r.value}`);
};

describe("visible env, cached", () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    p = createPersistence(db.prisma);
    await db.prisma.$queryRaw`SELECT 1`;
  });
  afterAll(() => db?.cleanup());

  it("is served from the cache between writes, and a write through the stores shows at once", async () => {
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    await p.env.set("thread", t.id, "A", "text", "1");
    const first = await p.env.visible(t.id, null);
    expect(await p.env.visible(t.id, null)).toBe(first); // the same object: no query
    await p.env.set("thread", t.id, "A", "text", "2");
    expect(await names(t.id)).toEqual(["A=2"]);
    await p.transaction(async (tx) => tx.env.set("instance", "instance", "I", "text", "x"));
    expect(await names(t.id)).toEqual(["A=2", "I=x"]);
    await p.env.delete("instance", "instance", "I");
    expect(await names(t.id)).toEqual(["A=2"]);
  });

  it("forgets what a rolled-back transaction wrote", async () => {
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    await expect(
      p.transaction(async (tx) => {
        await tx.env.set("thread", t.id, "B", "secret", "enc");
        // Read inside the transaction: the uncommitted value is visible (and would be cached).
        expect((await tx.env.visible(t.id, null)).thread.map((r) => r.name)).toEqual(["B"]);
        throw new Error("abandon");
      }),
    ).rejects.toThrow("abandon");
    expect(await names(t.id)).toEqual([]);
  });

  it("sees a value another connection committed (another process) once its entry expires", async () => {
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    expect(await names(t.id)).toEqual([]);
    const other = createPrismaClient(db.target);
    try {
      await other.envValue.create({ data: { scope: "thread", ownerKey: t.id, name: "C", type: "text", value: "3" } });
    } finally {
      await other.$disconnect();
    }
    expect(await names(t.id)).toEqual([]); // still the cached read
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await names(t.id)).toEqual(["C=3"]);
  });
});
