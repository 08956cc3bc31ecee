import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryEventBus } from "@/server/runtime/events/memory-bus";
import { EventPublisher } from "@/server/runtime/events/publisher";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { createPrismaClient } from "./client";
import { createPersistence } from "./persistence";
import { createTestDatabase, type TestDatabase } from "./test-database";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

const custom = (event: string, data: unknown = null) => ({ type: "custom" as const, event, data });

describe("event log on SQLite", () => {
  it("appendMany gives a batch the next contiguous seqs with one counter bump, and reads them back validated", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: {} as never });
    await p.events.append(t.id, custom("one"));
    const envs = await p.transaction((tx) => tx.events.appendMany(t.id, [custom("two"), custom("three", { x: 1 }), custom("four")]));
    expect(envs.map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(envs[1]).toMatchObject({ threadId: t.id, persisted: true, event: { type: "custom", event: "three", data: { x: 1 } } });
    expect(await p.events.lastSeq(t.id)).toBe(4);
    const read = await p.events.after(t.id, 0);
    expect(read.map((e) => [e.seq, (e.event as { event: string }).event])).toEqual([[1, "one"], [2, "two"], [3, "three"], [4, "four"]]);
    expect(read.slice(1).map((e) => e.at)).toEqual(envs.map((e) => e.at));
    expect(await p.transaction((tx) => tx.events.appendMany(t.id, []))).toEqual([]);
    // JSON that needs escaping comes back as written; an unknown thread is a not-found error (nothing is stored).
    const data = { s: 'quote " back\\slash ünïcode ✓', n: [1, 2.5, null], nested: { empty: [] } };
    const [odd] = await p.transaction((tx) => tx.events.appendMany(t.id, [custom("five", data)]));
    expect(odd!.event).toMatchObject({ data });
    expect((await p.events.after(t.id, 4))[0]).toEqual(odd);
    await expect(p.transaction((tx) => tx.events.appendMany("no-such-thread", [custom("x")]))).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("concurrent transactions and a second connection on the same file keep the sequence contiguous, each batch in one block", async () => {
    // Interactive transactions of two clients in one process cannot overlap (better-sqlite3 waits for a lock
    // synchronously), so: concurrent batches through each client, the two clients taking turns.
    const a = createPrismaClient(db.target);
    const b = createPrismaClient(db.target);
    try {
      const pa = createPersistence(a);
      const pb = createPersistence(b);
      const t = await pa.threads.create({ agentId: "a", state: {} as never });
      const published: ThreadEventEnvelope[] = [];
      const bus = new InMemoryEventBus();
      bus.subscribeAll((e) => published.push(e));
      const publishers = [new EventPublisher(pa, bus), new EventPublisher(pb, bus)];
      const batch = (i: number) =>
        publishers[Math.floor(i / 5) % 2]!.commit(async (tx, emit) => {
          await tx.threads.update(t.id, { name: `batch ${i}` });
          for (let k = 0; k < (i % 3) + 1; k++) await emit(t.id, custom(`b${i}`, k));
        });
      for (let round = 0; round < 4; round++) await Promise.all([0, 1, 2, 3, 4].map((j) => batch(round * 5 + j)));
      const read = await pa.events.after(t.id, 0, 10_000);
      expect(read.map((e) => e.seq)).toEqual(Array.from({ length: read.length }, (_, i) => i + 1));
      expect(read.length).toBe(Array.from({ length: 20 }, (_, i) => (i % 3) + 1).reduce((x, y) => x + y, 0));
      expect(await pb.events.lastSeq(t.id)).toBe(read.length);
      // Each transaction's events sit together, in emit order.
      for (let i = 0; i < 20; i++) {
        const mine = read.filter((e) => (e.event as { event: string }).event === `b${i}`);
        expect(mine.map((e) => (e.event as { data: number }).data)).toEqual(Array.from({ length: (i % 3) + 1 }, (_, k) => k));
        expect(mine.at(-1)!.seq - mine[0]!.seq).toBe(mine.length - 1);
      }
      // What was published is exactly what was stored.
      expect([...published].sort((x, y) => x.seq - y.seq).map((e) => [e.seq, e.event])).toEqual(read.map((e) => [e.seq, e.event]));
    } finally {
      await a.$disconnect();
      await b.$disconnect();
    }
  });

  it("events of several threads in one transaction each get their own contiguous seqs and are published in emit order", async () => {
    const p = createPersistence(db.prisma);
    const x = await p.threads.create({ agentId: "a", state: {} as never });
    const y = await p.threads.create({ agentId: "a", state: {} as never });
    const published: ThreadEventEnvelope[] = [];
    const bus = new InMemoryEventBus();
    bus.subscribeAll((e) => published.push(e));
    const pub = new EventPublisher(p, bus);
    await pub.commit(async (_tx, emit) => {
      await emit(x.id, custom("x1"));
      await emit(y.id, custom("y1"));
      await emit(x.id, custom("x2"));
    });
    expect(published.map((e) => [e.threadId === x.id ? "x" : "y", e.seq, (e.event as { event: string }).event])).toEqual([
      ["x", 1, "x1"],
      ["y", 1, "y1"],
      ["x", 2, "x2"],
    ]);
    // A failed transaction stores and publishes nothing.
    await expect(
      pub.commit(async (_tx, emit) => {
        await emit(x.id, custom("lost"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await p.events.lastSeq(x.id)).toBe(2);
    expect(published).toHaveLength(3);
  });
});
