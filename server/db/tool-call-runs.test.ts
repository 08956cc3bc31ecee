import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPersistence } from "./persistence";
import { chatSnapshotQueries } from "./queries/chat-snapshot";
import { createTestDatabase, type TestDatabase } from "./test-database";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

const toolCalls = [{ id: "call_1", type: "function" as const, function: { name: "charge", arguments: "{}" } }];
const assistant = { role: "assistant" as const, content: null, name: null, toolCalls, toolCallId: null, toolStatus: null, reasoningContent: null, attachments: null, silent: false, depth: 0, side: "a" as const, metadata: null, subagentId: null };

describe("tool call runs", () => {
  it("count the starts of a call per assistant message, inside and outside transactions, and go with the message", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: {} as never });
    const m1 = await p.messages.append(t.id, assistant);
    const m2 = await p.messages.append(t.id, assistant);
    expect(await p.transaction((tx) => tx.toolCallRuns.start(m1.id, "call_1"))).toBe(1);
    expect(await p.toolCallRuns.start(m1.id, "call_1")).toBe(2);
    // The same call id in another message is another call.
    expect(await p.transaction((tx) => tx.toolCallRuns.start(m2.id, "call_1"))).toBe(1);
    // A rolled-back start is not counted.
    await expect(
      p.transaction(async (tx) => {
        await tx.toolCallRuns.start(m1.id, "call_1");
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await p.toolCallRuns.start(m1.id, "call_1")).toBe(3);
    await p.messages.delete(m1.id);
    expect(await p.toolCallRuns.start(m2.id, "call_1")).toBe(2);
    expect(await db.prisma.toolCallRun.count({ where: { messageId: m1.id } })).toBe(0);
  });

  it("the chat snapshot reads each call's attempt from its tool.completed event", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: {} as never });
    await p.events.append(t.id, { type: "tool.completed", toolCallId: "c1", name: "x", status: "success", durationMs: 5, attempt: 2 });
    await p.events.append(t.id, { type: "tool.completed", toolCallId: "c2", name: "x", status: "error", durationMs: 1 });
    expect(await chatSnapshotQueries(db.prisma).toolRuns(t.id)).toEqual({
      c1: { durationMs: 5, status: "success", attempt: 2 },
      c2: { durationMs: 1, status: "error" },
    });
  });
});
