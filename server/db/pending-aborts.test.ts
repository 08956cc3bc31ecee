import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AbortRegistry } from "@/server/runtime/kernel/abort-registry";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import type { Persistence } from "@/server/runtime/ports";
import { createPersistence } from "./persistence";
import { createTestDatabase, type TestDatabase } from "./test-database";

let db: TestDatabase;
let p: Persistence;
beforeAll(async () => {
  db = await createTestDatabase();
  p = createPersistence(db.prisma);
});
afterAll(() => db.cleanup());

const running = async () => (await p.threads.create({ agentId: "a", status: "running", state: initialThreadState() })).id;

describe("aborts recorded by another process, read for every running thread at once", () => {
  it("pendingAborts names the stopped and the terminated threads among those asked for, and nothing else", async () => {
    const [plain, stopped, terminated, other] = [await running(), await running(), await running(), await running()];
    await p.threads.update(stopped, { stopRequestedAt: 1 });
    await p.threads.update(terminated, { status: "terminated", terminatedAt: 2 });
    await p.threads.update(other, { stopRequestedAt: 3 });
    const found = await p.threads.pendingAborts([plain, stopped, terminated, "no-such-thread"]);
    expect(found.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: stopped, reason: "user_stop" },
        { id: terminated, reason: "terminated" },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(await p.threads.pendingAborts([])).toEqual([]);
  });

  it("the registry's poll aborts the activations whose thread was stopped or terminated elsewhere, in one read per check", async () => {
    const reads: string[][] = [];
    const aborts = new AbortRegistry({
      pendingAborts: (ids) => {
        reads.push([...ids]);
        return p.threads.pendingAborts(ids);
      },
      pollMs: 20,
    });
    try {
      const [a, b, c] = [await running(), await running(), await running()];
      const ca = aborts.begin(a);
      const cb = aborts.begin(b);
      const cc = aborts.begin(c);
      // Written straight to the database, as another process's API does; no broadcast reaches this registry.
      await p.threads.update(a, { stopRequestedAt: 10 });
      await p.threads.update(b, { status: "terminated", terminatedAt: 11 });
      await waitUntil(() => ca.signal.aborted && cb.signal.aborted);
      expect([ca.signal.reason, cb.signal.reason, cc.signal.aborted]).toEqual(["user_stop", "terminated", false]);
      // Every read asked for all the threads still running at once (never one statement per activation).
      expect(reads.length).toBeGreaterThan(0);
      expect(reads[0]!.sort()).toEqual([a, b, c].sort());
      // No activation left: the poll stops reading.
      aborts.end(a, ca);
      aborts.end(b, cb);
      aborts.end(c, cc);
      await new Promise((r) => setTimeout(r, 60));
      const after = reads.length;
      await new Promise((r) => setTimeout(r, 100));
      expect(reads.length).toBe(after);
    } finally {
      aborts.close();
    }
  });

  it("a read that arrives after its activation ended never aborts the thread's next activation", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const aborts = new AbortRegistry({
      pendingAborts: async (ids) => {
        const found = await p.threads.pendingAborts(ids);
        await gate;
        return found;
      },
      pollMs: 10,
    });
    try {
      const id = await running();
      await p.threads.update(id, { stopRequestedAt: 20 });
      const first = aborts.begin(id);
      await new Promise((r) => setTimeout(r, 40)); // a read that found the stop is under way, held at the gate
      // Meanwhile the activation applied the stop itself and ended; a new one began (a message came).
      await p.threads.update(id, { stopRequestedAt: null });
      aborts.end(id, first);
      const next = aborts.begin(id);
      release();
      await new Promise((r) => setTimeout(r, 60));
      expect(next.signal.aborted).toBe(false);
      aborts.end(id, next);
    } finally {
      aborts.close();
    }
  });
});

async function waitUntil(ok: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}
