import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPersistence } from "./persistence";
import { createTestDatabase, type TestDatabase } from "./test-database";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

describe("env store (SQLite, or PostgreSQL with TEST_DATABASE_URL)", () => {
  it("visible() reads a thread's own, its user's and the instance's values in one query, each sorted by name", async () => {
    const p = createPersistence(db.prisma);
    await p.env.set("thread", "t1", "B", "text", "tb");
    await p.env.set("thread", "t1", "A", "secret", "ta");
    await p.env.set("thread", "t2", "A", "text", "other thread");
    await p.env.set("user", "u1", "U", "text", "u");
    await p.env.set("user", "u2", "U", "text", "other user");
    await p.env.set("instance", "instance", "I", "text", "i");
    const names = (v: { name: string; value: string }[]) => v.map((r) => `${r.name}=${r.value}`);
    const withUser = await p.env.visible("t1", "u1");
    expect(names(withUser.thread)).toEqual(["A=ta", "B=tb"]);
    expect(withUser.thread[0]).toMatchObject({ scope: "thread", ownerKey: "t1", type: "secret" });
    expect(names(withUser.user)).toEqual(["U=u"]);
    expect(names(withUser.instance)).toEqual(["I=i"]);
    expect(withUser).toEqual({ thread: await p.env.list("thread", "t1"), user: await p.env.list("user", "u1"), instance: await p.env.list("instance", "instance") });
    const noUser = await p.env.visible("t1", null);
    expect(noUser.user).toEqual([]);
    expect(names(noUser.thread)).toEqual(["A=ta", "B=tb"]);
    // A value set a moment ago is seen (no caching).
    await p.env.set("thread", "t1", "C", "text", "new");
    expect(names((await p.env.visible("t1", null)).thread)).toEqual(["A=ta", "B=tb", "C=new"]);
  });
});
