/** Reading a thread whose state did not change reuses the parsed state; it is frozen, since every reader shares it. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Persistence } from "@/server/runtime/ports";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import { createPersistence } from "../persistence";
import { threadStore } from "../repositories/threads";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";

let db: TestDatabase;
let p: Persistence;

describe.runIf(testDatabaseKind() === "sqlite")("thread state on SQLite", () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    p = createPersistence(db.prisma);
    await db.prisma.$queryRaw`SELECT 1`;
  });
  afterAll(() => db?.cleanup());

  it("is parsed once per stored text, shared, frozen, and equal to what Prisma reads", async () => {
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    const a = (await p.threads.get(t.id))!;
    const b = (await p.threads.get(t.id))!;
    expect(b.state).toBe(a.state);
    expect(Object.isFrozen(a.state)).toBe(true);
    expect(Object.isFrozen(a.state.lastTurnEndSeq)).toBe(true);
    expect(() => {
      (a.state as { activationSteps: number }).activationSteps = 99;
    }).toThrow(TypeError);

    const updated = await p.transaction((tx) => tx.threads.update(t.id, { state: { ...a.state, activationSteps: 3 } }));
    const c = (await p.threads.get(t.id))!;
    expect(c.state).not.toBe(a.state);
    expect(c.state).toBe(updated.state);
    expect(c.state.activationSteps).toBe(3);
    expect(c).toEqual(await threadStore(db.prisma).get(t.id));

    // A state written with every optional part is read back (from the text just written) as the schema reads it.
    const rich = {
      ...c.state,
      turn: { side: "b" as const, active: true, steps: 2, startSeq: 5 },
      session: { ended: true, reason: "session_stop" as const, ok: true, result: "r", attachments: ["/a"] },
      immediateDone: ["p1"],
      promptActivation: 4,
      continueRequested: false,
    };
    const written = await p.transaction((tx) => tx.threads.update(t.id, { state: rich }));
    expect(Object.isFrozen(written.state.session)).toBe(true);
    expect(written.state).toEqual((await threadStore(db.prisma).get(t.id))!.state);
    expect((await p.threads.get(t.id))!.state).toBe(written.state);
  });

  it("is let go when the thread's activation ends (idle threads do not stay resident)", async () => {
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    const a = (await p.threads.get(t.id))!;
    const env = await p.env.visible(t.id, null);
    p.release?.(t.id);
    const b = (await p.threads.get(t.id))!;
    expect(b.state).not.toBe(a.state);
    expect(b.state).toEqual(a.state);
    expect(await p.env.visible(t.id, null)).not.toBe(env);
  });

  it("is parsed again when the row changed behind the cache (another writer's text)", async () => {
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    const before = (await p.threads.get(t.id))!;
    // Through Prisma's own store, not the direct one: the cache never saw this text.
    await threadStore(db.prisma).update(t.id, { state: { ...before.state, activationSteps: 7 } });
    const after = (await p.threads.get(t.id))!;
    expect(after.state.activationSteps).toBe(7);
  });
});
