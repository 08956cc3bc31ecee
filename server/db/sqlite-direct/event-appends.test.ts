import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "@/shared/runtime-events";
import { sseFrame } from "@/server/api/threads/stream-handler";
import { envelopeText } from "@/server/runtime/events/envelope-text";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import type { EventLog, ThreadStore } from "@/server/runtime/ports";
import { directSqliteOf } from "../client";
import { eventLog } from "../repositories/events";
import { threadStore } from "../repositories/threads";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";
import { withDirectSqlite } from "./index";

/**
 * The direct appends keep each event's stored text with its envelope, and hand back the emitted event itself when it
 * is exactly its JSON: what the envelope carries, the row the log holds and the SSE frame must all still agree.
 */
let db: TestDatabase;
let threads: ThreadStore;
let prismaEvents: EventLog;
let direct: EventLog;

describe.runIf(testDatabaseKind() === "sqlite")("direct SQLite event appends", () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    threads = threadStore(db.prisma);
    prismaEvents = eventLog(db.prisma);
    await db.prisma.$queryRaw`SELECT 1`;
    direct = withDirectSqlite(directSqliteOf(db.prisma)!, "events", prismaEvents, false);
  });
  afterAll(() => db?.cleanup());

  it("store plain events as they are, and others as JSON makes them; envelopes, rows and frames agree", async () => {
    const t = await threads.create({ agentId: "agent", state: initialThreadState() });
    const plain: RuntimeEvent = { type: "custom", event: "plain", data: { n: 1, list: ["a", null] } };
    const odd = { type: "custom", event: "odd", data: { when: new Date(0), gone: undefined, z: -0 } } as unknown as RuntimeEvent;
    const envs = await direct.appendMany(t.id, [plain, odd]);
    expect(envs.map((e) => e.seq)).toEqual([1, 2]);
    // The plain event is not copied; the other is what a reader of its JSON gets.
    expect(envs[0]!.event).toBe(plain);
    expect(envs[1]!.event).toEqual({ type: "custom", event: "odd", data: { when: "1970-01-01T00:00:00.000Z", z: 0 } });
    const read = await prismaEvents.after(t.id, 0);
    expect(read).toEqual(envs);
    for (const [i, env] of envs.entries()) {
      expect(envelopeText(env)).toBe(JSON.stringify(read[i]!.event));
      // The frame spliced from the text is the frame serialized from the event read back from the log.
      expect(sseFrame(env)).toBe(sseFrame(read[i]!));
      expect(envelopeText(read[i]!)).toBeUndefined();
    }
  });

  it("roll a transaction's appends back with it", async () => {
    const t = await threads.create({ agentId: "agent", state: initialThreadState() });
    const sql = directSqliteOf(db.prisma)!;
    const inTx = withDirectSqlite(sql, "events", prismaEvents, true);
    await expect(
      sql.transaction(async () => {
        await inTx.appendMany(t.id, [{ type: "custom", event: "lost", data: null }]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await direct.lastSeq(t.id)).toBe(0);
    const [kept] = await direct.appendMany(t.id, [{ type: "custom", event: "kept", data: null }]);
    expect(kept!.seq).toBe(1);
    expect(await prismaEvents.after(t.id, 0)).toEqual([kept]);
  });
});
