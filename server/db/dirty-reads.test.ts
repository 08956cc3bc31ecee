import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import { createPersistence } from "./persistence";
import { createTestDatabase, type TestDatabase } from "./test-database";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

const message = (content: string) => ({
  role: "user" as const,
  content,
  name: null,
  toolCalls: null,
  toolCallId: null,
  toolStatus: null,
  reasoningContent: null,
  attachments: null,
  silent: false,
  depth: 0,
  side: "a" as const,
  metadata: null,
  subagentId: null,
});

/** Run `fn` in a transaction that stays open until `open` resolves, then rolls back (or commits with `commit`). */
function heldTransaction(p: ReturnType<typeof createPersistence>, fn: Parameters<typeof p.transaction>[0], opts: { commit?: boolean } = {}) {
  let release!: () => void;
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const done = p
    .transaction(async (tx) => {
      await fn(tx);
      entered();
      await new Promise<void>((r) => (release = r));
      if (!opts.commit) throw new Error("roll back");
    })
    .then(
      () => "committed",
      (err: Error) => err.message,
    );
  return { inside, release: () => release(), done };
}

describe("reads outside a transaction never see its uncommitted rows", () => {
  it("store and Prisma reads during an open transaction see the last committed state; a rolled-back write never appears", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    await p.messages.append(t.id, message("committed"));
    // Warm the read caches, as a stepping thread does.
    await p.messages.list(t.id, { includeSilent: true });
    await p.threads.get(t.id);
    const held = heldTransaction(p, async (tx) => {
      await tx.messages.append(t.id, message("phantom"));
      await tx.threads.update(t.id, { name: "phantom name" });
      await tx.events.append(t.id, { type: "custom", event: "phantom", data: null });
    });
    await held.inside;
    const contents = async () => (await p.messages.list(t.id, { includeSilent: true })).map((m) => m.content);
    expect(await contents()).toEqual(["committed"]);
    expect((await p.threads.get(t.id))?.name).toBeNull();
    expect(await p.messages.count(t.id)).toBe(1);
    expect(await p.events.after(t.id, 0)).toEqual([]);
    expect((await db.prisma.message.findMany({ where: { threadId: t.id } })).map((m) => m.content)).toEqual(["committed"]);
    // A write from outside waits for the transaction to end and is not rolled back with it.
    const outside = db.prisma.thread.update({ where: { id: t.id }, data: { tags: ["outside"] } });
    held.release();
    expect(await held.done).toBe("roll back");
    await outside;
    expect(await contents()).toEqual(["committed"]);
    expect((await p.threads.get(t.id))?.tags).toEqual(["outside"]);
    expect(await p.events.after(t.id, 0)).toEqual([]);
  });

  it("a committed transaction's rows appear once it commits", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    const held = heldTransaction(p, (tx) => tx.messages.append(t.id, message("later")).then(() => undefined), { commit: true });
    await held.inside;
    expect(await p.messages.list(t.id)).toEqual([]);
    held.release();
    expect(await held.done).toBe("committed");
    expect((await p.messages.list(t.id)).map((m) => m.content)).toEqual(["later"]);
  });
});
