import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "@/tests/helpers/test-app";
import type { Caller } from "@/shared/caller";
import { appRouter } from "../root";
import { createCallerFactory } from "../trpc";

let t: TestApp;
const callerFor = createCallerFactory(appRouter);
const admin: Caller = { userId: null, username: null, role: "admin", via: "local" };
let alice: string;
let bob: string;
const ids: Record<string, string> = {};
const DAY = 86_400_000;
const base = Date.parse("2026-11-20T12:00:00.000Z");

beforeAll(async () => {
  t = await startTestApp();
  const prisma = t.app.prisma;
  alice = (await prisma.user.create({ data: { username: `alice-${randomUUID()}`, passwordHash: "" } })).id;
  bob = (await prisma.user.create({ data: { username: `bob-${randomUUID()}`, passwordHash: "" } })).id;
  // old: created first, most recent activity; mid: alice's; new: bob's, created last, least recent activity.
  const rows = [
    {
      key: "old",
      userId: alice,
      createdAt: new Date(base - 5 * DAY),
      lastActivityAt: new Date(base + 3 * DAY),
      status: "idle",
    },
    {
      key: "mid",
      userId: alice,
      createdAt: new Date(base - 2 * DAY),
      lastActivityAt: new Date(base + 2 * DAY),
      status: "running",
    },
    { key: "new", userId: bob, createdAt: new Date(base), lastActivityAt: new Date(base + 1 * DAY), status: "idle" },
  ];
  for (const r of rows) {
    ids[r.key] = randomUUID();
    await prisma.thread.create({
      data: {
        id: ids[r.key]!,
        agentId: "writing_assistant",
        rootAgentId: "writing_assistant",
        tags: ["filters-test"],
        userId: r.userId,
        status: r.status,
        createdAt: r.createdAt,
        lastActivityAt: r.lastActivityAt,
      },
    });
  }
});
afterAll(async () => {
  await t?.close();
});

const mine = (threads: { id: string }[]) =>
  threads.map((x) => Object.entries(ids).find(([, id]) => id === x.id)?.[0]).filter(Boolean);

describe("chat.threadList sort and filters", () => {
  it("sorts by latest activity by default, or by creation, newest first", async () => {
    const c = callerFor({ app: t.app, caller: admin });
    expect(mine((await c.chat.threadList({ search: "filters-test" })).threads)).toEqual(["old", "mid", "new"]);
    expect(mine((await c.chat.threadList({ search: "filters-test", sort: "created" })).threads)).toEqual([
      "new",
      "mid",
      "old",
    ]);
  });

  it("filters by owner, by creation day (both ends included) and by running now", async () => {
    const c = callerFor({ app: t.app, caller: admin });
    expect(mine((await c.chat.threadList({ owner: alice, sort: "created" })).threads)).toEqual(["mid", "old"]);
    expect(mine((await c.chat.threadList({ owner: bob })).threads)).toEqual(["new"]);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const range = await c.chat.threadList({ createdFrom: day(base - 2 * DAY), createdTo: day(base), sort: "created" });
    expect(mine(range.threads)).toEqual(["new", "mid"]);
    expect(mine((await c.chat.threadList({ createdTo: day(base - 2 * DAY), search: "filters-test" })).threads)).toEqual(
      ["old", "mid"],
    );
    expect(mine((await c.chat.threadList({ status: "running", search: "filters-test" })).threads)).toEqual(["mid"]);
  });

  it("'awaiting approval' lists threads with a pending tool approval, under their ancestors; decided ones drop out", async () => {
    const prisma = t.app.prisma;
    const child = randomUUID();
    await prisma.thread.create({
      data: { id: child, agentId: "writing_assistant", rootAgentId: "writing_assistant", parentId: ids.mid!, userId: alice, status: "running", tags: ["filters-test"] },
    });
    const msg = await prisma.message.create({ data: { threadId: child, seq: 1, role: "assistant", createdAt: BigInt(Date.now() * 1000) } });
    const approval = await prisma.toolApproval.create({ data: { threadId: child, messageId: msg.id, toolCallId: "call_1", toolName: "pay", args: { amount: 500 } } });
    const c = callerFor({ app: t.app, caller: admin });
    const waiting = await c.chat.threadList({ awaitingApproval: true });
    expect(waiting.threads.map((x) => [x.id, x.context])).toEqual([
      [child, false],
      [ids.mid, true],
    ]);
    await prisma.toolApproval.update({ where: { id: approval.id }, data: { status: "approved" } });
    expect((await c.chat.threadList({ awaitingApproval: true })).threads).toEqual([]);
    await prisma.thread.delete({ where: { id: child } });
  });

  it("'me' is the caller's own threads, and a user never sees another's by naming them", async () => {
    const asAlice = callerFor({
      app: t.app,
      caller: { userId: alice, username: "alice", role: "user", via: "session" },
    });
    expect(mine((await asAlice.chat.threadList({ owner: "me" })).threads).sort()).toEqual(["mid", "old"]);
    expect(mine((await asAlice.chat.threadList({ owner: bob })).threads).sort()).toEqual(["mid", "old"]);
  });

  it("a malformed date is a BAD_REQUEST naming the field", async () => {
    const c = callerFor({ app: t.app, caller: admin });
    const err = await c.chat.threadList({ createdFrom: "27/11/2026" }).then(
      () => null,
      (e: { code?: string; message?: string }) => e,
    );
    expect(err?.code).toBe("BAD_REQUEST");
    expect(err?.message).toContain("createdFrom");
  });
});
