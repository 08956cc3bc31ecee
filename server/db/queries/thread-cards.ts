import type { ThreadRecord } from "@/server/runtime/ports";
import type { PrismaClient } from "../client";
import { toThreadRecord } from "../repositories/threads";

export interface ThreadStatusRow {
  id: string;
  status: string;
  agentId: string;
  name: string | null;
  stopReason: string | null;
}

/** A child spawned by one of a parent's tool calls, as its card shows it while it runs and after. */
export interface ChildCallRow {
  toolCallId: string;
  childId: string;
  agentId: string;
  title: string | null;
  name: string | null;
  /** The child's status in the parent's registry: running, idle, failed, terminated, or its own sessionStatus text. */
  registryStatus: string;
  threadStatus: string;
  stopReason: string | null;
  /** When the child was spawned (ms). */
  createdAt: number;
  /** When the child stopped running (ms): terminated, or its last activity when idle; null while it runs. */
  finishedAt: number | null;
  /** The child's own children, for the card's compact tree. */
  children: number;
}

/** What the chat's child-agent cards show: a thread's direct children, and the statuses of threads named in text. */
export function threadCardQueries(prisma: PrismaClient) {
  return {
    /**
     * The forks of a thread (`POST /api/threads/:id/fork`), oldest first: top-level threads of the same agent created
     * after it whose fork origin is this thread (among the 2,000 newest such threads).
     */
    async forks(threadId: string, userId?: string): Promise<ThreadRecord[]> {
      const source = await prisma.thread.findUnique({ where: { id: threadId }, select: { rootAgentId: true, createdAt: true } });
      if (!source) return [];
      const rows = await prisma.thread.findMany({
        where: { parentId: null, rootAgentId: source.rootAgentId, createdAt: { gte: source.createdAt }, id: { not: threadId }, ...(userId ? { userId } : {}) },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 2_000,
      });
      return rows
        .map(toThreadRecord)
        .filter((t) => t.state.fork?.fromThreadId === threadId)
        .reverse();
    },
    /** Direct children, oldest first (at most 1,000). */
    async children(parentId: string): Promise<ThreadRecord[]> {
      const rows = await prisma.thread.findMany({ where: { parentId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 1_000 });
      return rows.map(toThreadRecord);
    },
    /** The children a parent's tool calls spawned (at most 500, newest first): a running card links to its child. */
    async childCalls(parentId: string): Promise<ChildCallRow[]> {
      const rows = await prisma.subagentEntry.findMany({
        where: { parentId, toolCallId: { not: null } },
        orderBy: [{ createdAt: "desc" }],
        take: 500,
        select: {
          toolCallId: true,
          childId: true,
          name: true,
          title: true,
          threadName: true,
          status: true,
          createdAt: true,
          child: {
            select: {
              status: true,
              stopReason: true,
              terminatedAt: true,
              lastActivityAt: true,
              _count: { select: { children: true } },
            },
          },
        },
      });
      return rows.map((r) => ({
        toolCallId: r.toolCallId!,
        childId: r.childId,
        agentId: r.name,
        title: r.title,
        name: r.threadName,
        registryStatus: r.status,
        threadStatus: r.child.status,
        stopReason: r.child.stopReason,
        createdAt: Number(r.createdAt / 1000n),
        finishedAt:
          r.child.status === "running"
            ? null
            : r.child.terminatedAt !== null
              ? Number(r.child.terminatedAt / 1000n)
              : r.child.lastActivityAt.getTime(),
        children: r.child._count.children,
      }));
    },
    statuses(ids: string[]): Promise<ThreadStatusRow[]> {
      return prisma.thread.findMany({
        where: { id: { in: ids } },
        select: { id: true, status: true, agentId: true, name: true, stopReason: true },
      });
    },
  };
}
