import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorStatus } from "@/server/api/errors";
import { createPrismaClient } from "./client";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import { createPersistence } from "./persistence";
import { messageStore } from "./repositories/messages";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "./test-database";

/**
 * The repositories answer the same on SQLite and PostgreSQL (run with TEST_DATABASE_URL for the second): ordering
 * of text, case of prefixes, read-modify-write under concurrency from several connections, unique violations.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

// Interactive transactions of two SQLite clients in one process cannot overlap (better-sqlite3 waits for the lock
// synchronously): there, the concurrent transactions share one client; on PostgreSQL they use two connections.
const onPostgres = testDatabaseKind() === "postgresql";
const secondClient = () => (onPostgres ? createPrismaClient(db.target) : null);

describe(`portable queries on ${testDatabaseKind()}`, () => {
  it("lists files under a prefix case-sensitively, ordered by code unit whatever the database's collation", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    for (const path of ["/docs/b", "/Docs/x", "/docs/a-b", "/docs/ab", "/docs/B", "/docs/_z", "/docs%/y", "/other"]) {
      await p.files.write(t.id, path, new Uint8Array([1]), {});
    }
    expect((await p.files.list(t.id, "/docs/")).map((f) => f.path)).toEqual(["/docs/B", "/docs/_z", "/docs/a-b", "/docs/ab", "/docs/b"]);
    expect((await p.files.list(t.id, "/")).map((f) => f.path)[0]).toBe("/Docs/x");
  });

  it("orders env names by code unit", async () => {
    const p = createPersistence(db.prisma);
    for (const name of ["b", "B", "a_b", "A-B", "ab"]) await p.env.set("instance", "order-test", name, "text", name);
    expect((await p.env.list("instance", "order-test")).map((v) => v.name)).toEqual(["A-B", "B", "a_b", "ab", "b"]);
  });

  it("never loses a thread state update when concurrent transactions read-modify-write it", async () => {
    const a = createPersistence(db.prisma);
    const other = secondClient();
    try {
      const b = other ? createPersistence(other) : a;
      const t = await a.threads.create({ agentId: "a", state: initialThreadState() });
      const bump = (p: typeof a) =>
        p.transaction(async (tx) => {
          const fresh = (await tx.threads.get(t.id))!;
          await new Promise((r) => setTimeout(r, 2));
          await tx.threads.update(t.id, { state: { ...fresh.state, activationSteps: fresh.state.activationSteps + 1 } });
        });
      await Promise.all(Array.from({ length: 16 }, (_, i) => bump(i % 2 === 0 ? a : b)));
      expect((await a.threads.get(t.id))!.state.activationSteps).toBe(16);
    } finally {
      await other?.$disconnect();
    }
  });

  it("gives concurrent queue entries contiguous seqs", async () => {
    const a = createPersistence(db.prisma);
    const other = secondClient();
    try {
      const b = other ? createPersistence(other) : a;
      const t = await a.threads.create({ agentId: "a", state: initialThreadState() });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 === 0 ? a : b).transaction((tx) => tx.queue.enqueue(t.id, { role: "user", content: `q${i}` })),
        ),
      );
      const pending = await a.queue.pending(t.id);
      expect(pending.map((q) => q.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    } finally {
      await other?.$disconnect();
    }
  });

  it("concurrent claims from two connections never take the same item, nor two items of one thread", async () => {
    const a = createPersistence(db.prisma);
    const other = secondClient();
    try {
      const b = other ? createPersistence(other) : a;
      const threads = await Promise.all(Array.from({ length: 4 }, () => a.threads.create({ agentId: "a", state: initialThreadState() })));
      for (const t of threads) for (let k = 0; k < 2; k++) await a.work.enqueue({ threadId: t.id, kind: "step", payload: { k } });
      const [x, y] = await Promise.all([a.work.claim("owner-a", 8, 60_000), b.work.claim("owner-b", 8, 60_000)]);
      const claimed = [...x!, ...y!];
      expect(new Set(claimed.map((c) => c.id)).size).toBe(claimed.length);
      expect(new Set(claimed.map((c) => c.threadId)).size).toBe(claimed.length);
      expect(claimed).toHaveLength(4);
    } finally {
      await other?.$disconnect();
    }
  });

  it("pages through threads with the same activity time without repeating or skipping one", async () => {
    const p = createPersistence(db.prisma);
    const ids = (await Promise.all(Array.from({ length: 7 }, () => p.threads.create({ agentId: "tie-agent", state: initialThreadState() })))).map((t) => t.id);
    await db.prisma.thread.updateMany({ where: { id: { in: ids } }, data: { lastActivityAt: new Date("2026-01-01T00:00:00Z") } });
    const seen: string[] = [];
    for (let offset = 0; offset < 7; offset += 2) {
      seen.push(...(await p.threads.list({ agentId: "tie-agent", limit: 2, offset })).threads.map((t) => t.id));
    }
    expect(seen).toEqual([...ids].sort());
  });

  it("a unique violation becomes a 409 naming the field", async () => {
    await db.prisma.user.create({ data: { username: "dup", passwordHash: "x" } });
    const err = await db.prisma.user.create({ data: { username: "dup", passwordHash: "y" } }).catch((e: unknown) => e);
    expect(errorStatus(err)).toMatchObject({ status: 409, code: "CONFLICT", details: [{ path: "username", message: "taken" }] });
  });

  it("a thread read in a transaction after its lock is the row as stored, and then as the transaction updated it", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", tags: ["x"], name: "n", state: initialThreadState() });
    await p.threads.update(t.id, { stopRequestedAt: 1_790_000_000_123_456, terminatedAt: null, status: "running" });
    const stored = await p.threads.get(t.id);
    await p.transaction(async (tx) => {
      await tx.threads.lock(t.id);
      expect(await tx.threads.get(t.id)).toEqual(stored);
      const updated = await tx.threads.update(t.id, { name: "renamed", state: { ...initialThreadState(), activationSteps: 3 } });
      expect(await tx.threads.get(t.id)).toEqual(updated);
      expect(updated).toMatchObject({ name: "renamed", version: stored!.version + 1 });
      expect(await tx.threads.get("no-such-thread")).toBeNull();
    });
    expect(await p.threads.get(t.id)).toMatchObject({ name: "renamed", state: { activationSteps: 3 } });
  });

  it("a message appended in one statement gets the next seq, reads back as written, and a taken id is a 409", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    // The Prisma store itself (on SQLite the persistence runs the direct statements instead).
    const store = messageStore(db.prisma);
    const m = {
      role: "assistant" as const,
      content: null,
      name: null,
      toolCalls: [{ id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } }],
      toolCallId: null,
      toolStatus: null,
      reasoningContent: "why",
      attachments: null,
      silent: true,
      depth: 1,
      side: "b" as const,
      metadata: { k: [1, "2"] },
      subagentId: null,
    };
    const first = await store.append(t.id, { ...m, id: `m1-${t.id}` });
    const second = await store.append(t.id, { ...m, content: "two", toolCalls: null, silent: false, createdAt: 42 });
    expect([first.seq, second.seq]).toEqual([1, 2]);
    expect(await store.get(first.id)).toEqual(first);
    expect(await store.get(second.id)).toEqual(second);
    expect(second.createdAt).toBe(42);
    const err = await store.append(t.id, { ...m, id: `m1-${t.id}` }).catch((e: unknown) => e);
    expect(errorStatus(err)).toMatchObject({ status: 409, code: "CONFLICT", details: [{ path: "id", message: "taken" }] });
    expect(await store.lastSeq(t.id)).toBe(2);
  });
});
