import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type PrismaClient } from "./client";
import { createTestDatabase, type TestDatabase } from "./test-database";

let db: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = db.prisma;
});
afterAll(() => db.cleanup());

const micros = (ms: number) => BigInt(ms) * 1000n;

async function newThread(data: Partial<Prisma.ThreadUncheckedCreateInput> = {}) {
  return prisma.thread.create({ data: { agentId: "writer", rootAgentId: "writer", ...data } });
}

describe("every model round-trips through a migrated SQLite database", () => {
  it("User, Session, ApiKey", async () => {
    const user = await prisma.user.create({ data: { username: "ada", passwordHash: "h", role: "admin" } });
    expect(user.role).toBe("admin");
    await prisma.session.create({
      data: { tokenHash: "t1", userId: user.id, expiresAt: new Date(Date.now() + 60_000) },
    });
    await prisma.apiKey.create({ data: { userId: user.id, name: "ci", prefix: "sk_ab", keyHash: "k1" } });
    const back = await prisma.user.findUniqueOrThrow({
      where: { username: "ada" },
      include: { sessions: true, apiKeys: true },
    });
    expect(back.sessions.map((s) => s.tokenHash)).toEqual(["t1"]);
    expect(back.apiKeys[0]).toMatchObject({ name: "ci", prefix: "sk_ab", revokedAt: null, lastUsedAt: null });
    await expect(prisma.user.create({ data: { username: "ada", passwordHash: "x" } })).rejects.toThrow(
      /Unique constraint/,
    );
  });

  it("Thread with its defaults, JSON columns, BigInt µs and the parent/children relation", async () => {
    const parent = await newThread({ tags: ["a", "b"], state: { turn: null, activationSteps: 3 } });
    expect(parent).toMatchObject({ status: "idle", activeSide: "a", eventSeq: 0, version: 0, stopReason: null });
    expect(parent.tags).toEqual(["a", "b"]);
    expect(parent.state).toEqual({ turn: null, activationSteps: 3 });
    const child = await newThread({
      parentId: parent.id,
      terminatedAt: micros(1_700_000_000_123) + 456n,
      name: "researcher-1",
    });
    const bare = await newThread();
    expect(bare.tags).toEqual([]);
    expect(bare.state).toEqual({});
    const loaded = await prisma.thread.findUniqueOrThrow({ where: { id: parent.id }, include: { children: true } });
    expect(loaded.children.map((c) => c.id)).toEqual([child.id]);
    expect((await prisma.thread.findUniqueOrThrow({ where: { id: child.id } })).terminatedAt).toBe(
      1_700_000_000_123_456n,
    );
  });

  it("Message and QueuedMessage, ordered by seq, unique per thread", async () => {
    const t = await newThread();
    await prisma.message.create({
      data: {
        threadId: t.id,
        seq: 1,
        role: "assistant",
        content: null,
        toolCalls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: "{}" } }],
        side: "a",
        createdAt: micros(Date.now()),
      },
    });
    await prisma.message.create({
      data: {
        threadId: t.id,
        seq: 2,
        role: "tool",
        content: "ok",
        toolCallId: "c1",
        toolStatus: "success",
        silent: true,
        createdAt: 1n,
      },
    });
    const msgs = await prisma.message.findMany({ where: { threadId: t.id }, orderBy: { seq: "asc" } });
    expect(msgs.map((m) => [m.seq, m.role, m.silent, m.depth])).toEqual([
      [1, "assistant", false, 0],
      [2, "tool", true, 0],
    ]);
    expect(msgs[0]?.toolCalls).toEqual([{ id: "c1", type: "function", function: { name: "lookup", arguments: "{}" } }]);
    expect(msgs[0]?.attachments).toBeNull();
    await expect(
      prisma.message.create({ data: { threadId: t.id, seq: 2, role: "user", createdAt: 1n } }),
    ).rejects.toThrow(/Unique constraint/);

    const q = await prisma.queuedMessage.create({
      data: {
        threadId: t.id,
        seq: 1,
        role: "user",
        content: "hi",
        attachments: ["/attachments/a.txt"],
        metadata: Prisma.DbNull,
      },
    });
    expect(q).toMatchObject({ status: "pending", silent: false, metadata: null, deliveredAt: null });
    await prisma.queuedMessage.update({
      where: { id: q.id },
      data: { status: "delivered", deliveredAt: new Date(), deliveredMessageId: msgs[0]!.id },
    });
    expect(await prisma.queuedMessage.count({ where: { threadId: t.id, status: "pending" } })).toBe(0);
  });

  it("SubagentEntry links a parent to a child; the child is unique", async () => {
    const parent = await newThread();
    const child = await newThread({ agentId: "researcher", rootAgentId: "researcher", parentId: parent.id });
    const entry = await prisma.subagentEntry.create({
      data: {
        parentId: parent.id,
        childId: child.id,
        name: "researcher",
        description: "finds sources",
        resumable: true,
        blocking: false,
        status: "running",
        parentCommunication: "implicit",
        toolName: "subagent_create",
        createdAt: micros(Date.now()),
      },
    });
    const withEntries = await prisma.thread.findUniqueOrThrow({
      where: { id: parent.id },
      include: { subagentEntries: true },
    });
    expect(withEntries.subagentEntries.map((e) => e.childId)).toEqual([child.id]);
    expect(
      (await prisma.thread.findUniqueOrThrow({ where: { id: child.id }, include: { subagentOf: true } })).subagentOf
        ?.id,
    ).toBe(entry.id);
    const reported = await prisma.subagentEntry.updateMany({
      where: { id: entry.id, reportedAt: null },
      data: { reportedAt: new Date() },
    });
    const again = await prisma.subagentEntry.updateMany({
      where: { id: entry.id, reportedAt: null },
      data: { reportedAt: new Date() },
    });
    expect([reported.count, again.count]).toEqual([1, 0]); // exactly-once delivery guard
  });

  it("LlmRequestLog, ThreadFile (bytes), ScheduledEffect, VariableRequest", async () => {
    const t = await newThread();
    const log = await prisma.llmRequestLog.create({
      data: {
        threadId: t.id,
        modelName: "fast",
        provider: "openai",
        modelId: "gpt-x",
        attempt: 1,
        request: { messages: [{ role: "user", content: "[redacted]" }] },
        status: "success",
        inputTokens: 10,
        outputTokens: 5,
        cost: 0.0012,
        startedAt: new Date(),
      },
    });
    expect(log).toMatchObject({ cachedTokens: 0, response: null, latencyMs: null, cost: 0.0012 });

    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    await prisma.threadFile.create({
      data: { threadId: t.id, path: "/attachments/a.bin", data: bytes, size: bytes.length },
    });
    const file = await prisma.threadFile.findUniqueOrThrow({
      where: { threadId_path: { threadId: t.id, path: "/attachments/a.bin" } },
    });
    expect(Array.from(file.data ?? [])).toEqual([0, 1, 2, 250, 255]);
    expect(file.isDirectory).toBe(false);

    const effect = await prisma.scheduledEffect.create({
      data: { threadId: t.id, name: "remind", args: { in: 5 }, runAt: new Date() },
    });
    expect(effect).toMatchObject({ status: "pending", attempts: 0, args: { in: 5 } });

    const req = await prisma.variableRequest.create({
      data: {
        parentThreadId: t.id,
        agent: "researcher",
        required: ["API_KEY"],
        missing: ["API_KEY"],
        payload: { message: "go" },
      },
    });
    expect(req).toMatchObject({ status: "open", fulfilledAt: null, missing: ["API_KEY"] });
  });

  it("WorkItem (idempotent by dedupeKey), Lease, EnvValue (unique per scope, owner, name)", async () => {
    const t = await newThread();
    const w = await prisma.workItem.create({ data: { threadId: t.id, kind: "step", dedupeKey: `step:${t.id}` } });
    expect(w).toMatchObject({ status: "pending", attempts: 0, payload: {}, leaseOwner: null });
    await expect(prisma.workItem.create({ data: { kind: "step", dedupeKey: `step:${t.id}` } })).rejects.toThrow(
      /Unique constraint/,
    );
    await prisma.workItem.create({ data: { kind: "effect" } });
    await prisma.workItem.create({ data: { kind: "effect" } }); // many rows without a key

    await prisma.lease.create({
      data: { key: `thread:${t.id}`, owner: "w1", expiresAt: new Date(Date.now() + 30_000) },
    });
    expect((await prisma.lease.findUniqueOrThrow({ where: { key: `thread:${t.id}` } })).owner).toBe("w1");

    await prisma.envValue.create({
      data: { scope: "instance", ownerKey: "instance", name: "TOKEN", type: "secret", value: "c1" },
    });
    await prisma.envValue.create({ data: { scope: "thread", ownerKey: t.id, name: "TOKEN", value: "plain" } });
    await expect(
      prisma.envValue.create({ data: { scope: "instance", ownerKey: "instance", name: "TOKEN", value: "again" } }),
    ).rejects.toThrow(/Unique constraint/);
  });

  it("ThreadEvent: the (threadId, seq) primary key rejects a duplicate sequence number", async () => {
    const t = await newThread();
    await prisma.threadEvent.create({ data: { threadId: t.id, seq: 1, type: "message", data: { id: "m1" } } });
    await prisma.threadEvent.create({ data: { threadId: t.id, seq: 2, type: "status", data: { status: "idle" } } });
    await expect(
      prisma.threadEvent.create({ data: { threadId: t.id, seq: 2, type: "status", data: { status: "running" } } }),
    ).rejects.toThrow(/Unique constraint/);
    const other = await newThread();
    await prisma.threadEvent.create({ data: { threadId: other.id, seq: 1, type: "message", data: {} } }); // per thread
    const events = await prisma.threadEvent.findMany({ where: { threadId: t.id }, orderBy: { seq: "asc" } });
    expect(events.map((e) => [e.seq, e.data])).toEqual([
      [1, { id: "m1" }],
      [2, { status: "idle" }],
    ]);
  });

  it("rejects rows that point at a missing thread", async () => {
    await expect(
      prisma.message.create({
        data: { threadId: "00000000-0000-0000-0000-000000000000", seq: 1, role: "user", createdAt: 1n },
      }),
    ).rejects.toThrow(/Foreign key constraint/);
  });

  it("deleting a thread deletes what it owns and its descendants; deleting a user deletes theirs", async () => {
    const user = await prisma.user.create({ data: { username: "grace", passwordHash: "h" } });
    const root = await newThread({ userId: user.id });
    const child = await newThread({ parentId: root.id, userId: user.id });
    const grandchild = await newThread({ parentId: child.id, userId: user.id });
    for (const t of [root, child, grandchild]) {
      await prisma.message.create({ data: { threadId: t.id, seq: 1, role: "user", content: "x", createdAt: 1n } });
      await prisma.threadEvent.create({ data: { threadId: t.id, seq: 1, type: "message", data: {} } });
      await prisma.workItem.create({ data: { threadId: t.id, kind: "step" } });
    }
    await prisma.subagentEntry.create({
      data: {
        parentId: root.id,
        childId: child.id,
        name: "c",
        description: "",
        resumable: false,
        blocking: true,
        status: "running",
        parentCommunication: "implicit",
        toolName: "c",
        createdAt: 1n,
      },
    });
    const ids = [root.id, child.id, grandchild.id];

    await prisma.thread.delete({ where: { id: child.id } });
    expect(await prisma.thread.count({ where: { id: { in: ids } } })).toBe(1);
    expect(await prisma.subagentEntry.count({ where: { parentId: root.id } })).toBe(0);
    expect(await prisma.message.count({ where: { threadId: { in: [child.id, grandchild.id] } } })).toBe(0);
    expect(await prisma.workItem.count({ where: { threadId: { in: [child.id, grandchild.id] } } })).toBe(0);

    await prisma.session.create({ data: { tokenHash: "grace-t", userId: user.id, expiresAt: new Date() } });
    await prisma.user.delete({ where: { id: user.id } });
    expect(await prisma.thread.count({ where: { id: root.id } })).toBe(0);
    expect(await prisma.threadEvent.count({ where: { threadId: root.id } })).toBe(0);
    expect(await prisma.session.count({ where: { tokenHash: "grace-t" } })).toBe(0);
  });
});
