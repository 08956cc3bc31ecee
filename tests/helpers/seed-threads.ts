import { randomUUID } from "node:crypto";
import type { TestApp } from "./test-app";

/**
 * Rows written straight into a test app's database, for tests of the API's reads that need shapes the runtime takes
 * long to make (a 200-child tree) or never makes on its own (a thread moved under another).
 */

/** A root with `wide` children and a chain of `deep` more levels under the first child; one request log each. */
export async function seedTree(t: TestApp, wide: number, deep: number) {
  const prisma = t.app.prisma;
  const root = randomUUID();
  const now = Date.now();
  const threads: { id: string; parentId: string | null; name: string | null }[] = [{ id: root, parentId: null, name: null }];
  for (let i = 0; i < wide; i++) threads.push({ id: randomUUID(), parentId: root, name: `Check ${i + 1}` });
  for (let i = 0; i < deep; i++) threads.push({ id: randomUUID(), parentId: threads[i === 0 ? 1 : threads.length - 1]!.id, name: `Level ${i + 2}` });
  await prisma.thread.createMany({
    data: threads.map((x, i) => ({ id: x.id, agentId: i === 0 ? "boss" : "res_duo", rootAgentId: i === 0 ? "boss" : "res_duo", parentId: x.parentId, name: x.name, createdAt: new Date(now + i) })),
  });
  const kids = threads.slice(1);
  await prisma.subagentEntry.createMany({
    data: kids.map((x, i) => ({
      parentId: x.parentId!,
      childId: x.id,
      name: "res_duo",
      description: "d",
      resumable: true,
      blocking: i % 2 === 0,
      threadName: x.name,
      status: i % 3 === 2 ? `Step ${i}` : i % 3 === 1 ? "idle" : "running",
      parentCommunication: "implicit",
      toolName: "res_duo",
      createdAt: BigInt(now * 1000 + i),
    })),
  });
  await prisma.llmRequestLog.createMany({ data: threads.map((x) => requestLog(x.id, { inputTokens: 100, outputTokens: 20, cost: 0.001 }, new Date(now))) });
  return { root, threads };
}

const requestLog = (threadId: string, usage: { inputTokens: number; outputTokens: number; cost: number }, startedAt = new Date()) => ({
  threadId,
  modelName: "fast",
  provider: "openai",
  modelId: "m",
  attempt: 1,
  request: {},
  status: "success",
  ...usage,
  startedAt,
});

/** One more successful request log of a thread. */
export async function addRequestLog(t: TestApp, threadId: string, usage: { inputTokens: number; outputTokens: number; cost: number }): Promise<void> {
  await t.app.prisma.llmRequestLog.create({ data: requestLog(threadId, usage) });
}

/** A thread of the `res_duo` agent under `parentId`, with no registry entry (a spawn the registry has not caught up with). */
export async function addChildThread(t: TestApp, id: string, parentId: string, name: string): Promise<void> {
  await t.app.prisma.thread.create({ data: { id, agentId: "res_duo", rootAgentId: "res_duo", parentId, name } });
}

/** Set a child's status in its parent's registry (e.g. its own `sessionStatus` text). */
export async function setRegistryStatus(t: TestApp, childId: string, status: string): Promise<void> {
  await t.app.prisma.subagentEntry.update({ where: { childId }, data: { status } });
}

/** Move a thread under another (children are normally made by subagent spawns). */
export async function setParent(t: TestApp, childId: string, parentId: string): Promise<void> {
  await t.app.prisma.thread.update({ where: { id: childId }, data: { parentId } });
}
