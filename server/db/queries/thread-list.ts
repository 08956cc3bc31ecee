import type { ThreadRecord } from "@/server/runtime/ports";
import type { PrismaClient } from "../client";
import { toThreadRecord } from "../repositories/threads";
import { threadPreviews, type ThreadPreview } from "./thread-previews";

export interface ThreadListInput {
  search?: string;
  agentId?: string;
  status?: "running" | "idle" | "terminated";
  /** Only threads with a tool call waiting for approval. */
  awaitingApproval?: boolean;
  /** activity: latest activity first; created: newest first. */
  sort?: "activity" | "created";
  /** Created in this range (`lt` excluded). */
  createdAt?: { gte?: Date; lt?: Date };
  limit: number;
  /** Only this user's threads; every thread when undefined (the caller's access, not a filter they chose). */
  userId?: string;
  /** A filter the caller chose: only this user's threads. */
  owner?: string;
}

export interface ThreadListEntry {
  thread: ThreadRecord;
  preview: ThreadPreview | null;
  /** Listed only as the ancestor of a match (it does not match the filters itself). */
  context: boolean;
  children: number;
  /** A tool call of this thread waits for a human's approval. */
  awaitingApproval: boolean;
}

/** Threads listed past this many, descendants included, are left out. */
const MAX_LISTED = 5_000;

/**
 * The chat's thread list: without filters, the latest roots with all their descendants; with filters, the matches
 * with their ancestors (so each keeps its place in the tree). Each thread comes with its last message preview and
 * its number of children; `total` counts the roots (or the matches), `running` the user's running threads.
 */
export async function threadList(prisma: PrismaClient, input: ThreadListInput) {
  const who = input.userId ?? input.owner;
  const mine = who ? { userId: who } : {};
  const filtered = Boolean(input.search?.trim() || input.agentId || input.status || input.awaitingApproval || input.createdAt || input.owner);
  const order = input.sort === "created" ? ("createdAt" as const) : ("lastActivityAt" as const);
  let records: ThreadRecord[];
  let total: number;
  const context = new Set<string>();
  if (!filtered) {
    const where = { parentId: null, ...mine };
    const [roots, count] = await Promise.all([
      prisma.thread.findMany({ where, orderBy: [{ [order]: "desc" }, { id: "asc" }], take: input.limit }),
      prisma.thread.count({ where }),
    ]);
    records = roots.map(toThreadRecord);
    total = count;
    let frontier = records.map((r) => r.id);
    while (frontier.length > 0 && records.length < MAX_LISTED) {
      const kids = (
        await prisma.thread.findMany({ where: { parentId: { in: frontier } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })
      ).map(toThreadRecord);
      records.push(...kids);
      frontier = kids.map((k) => k.id);
    }
  } else {
    const res = await matches(prisma, input, order);
    records = res.threads;
    total = res.total;
    // Ancestors of matches give them their place in the tree.
    const have = new Set(records.map((r) => r.id));
    let missing = [...new Set(records.map((r) => r.parentId).filter((p): p is string => !!p && !have.has(p)))];
    while (missing.length > 0) {
      const parents = (await prisma.thread.findMany({ where: { id: { in: missing } } })).map(toThreadRecord);
      for (const p of parents) {
        have.add(p.id);
        context.add(p.id);
        records.push(p);
      }
      missing = [...new Set(parents.map((p) => p.parentId).filter((p): p is string => !!p && !have.has(p)))];
    }
  }
  const ids = records.map((r) => r.id);
  const [previews, childCounts, running, waiting] = await Promise.all([
    threadPreviews(prisma, ids),
    prisma.thread.groupBy({ by: ["parentId"], where: { parentId: { in: ids } }, _count: { _all: true } }),
    prisma.thread.count({ where: { status: "running", ...mine } }),
    prisma.toolApproval.groupBy({ by: ["threadId"], where: { threadId: { in: ids }, status: "pending" } }),
  ]);
  const awaiting = new Set(waiting.map((w) => w.threadId));
  const kids = new Map(childCounts.map((c) => [c.parentId ?? "", c._count._all]));
  const threads: ThreadListEntry[] = records.map((r) => ({
    thread: r,
    preview: previews.get(r.id) ?? null,
    context: context.has(r.id),
    children: kids.get(r.id) ?? 0,
    awaitingApproval: awaiting.has(r.id),
  }));
  return { threads, total, running, filtered };
}

/** Threads matching the filters, in the chosen order; a search (id, name, agent or tag) runs over the latest 5,000. */
async function matches(prisma: PrismaClient, input: ThreadListInput, order: "createdAt" | "lastActivityAt") {
  const where = {
    ...(input.agentId ? { agentId: input.agentId } : {}),
    ...(input.status ? { status: input.status } : {}),
    ...(input.awaitingApproval ? { toolApprovals: { some: { status: "pending" } } } : {}),
    ...((input.userId ?? input.owner) ? { userId: input.userId ?? input.owner } : {}),
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
  };
  const orderBy = [{ [order]: "desc" as const }, { id: "asc" as const }];
  const needle = input.search?.trim().toLowerCase();
  if (needle) {
    const rows = (await prisma.thread.findMany({ where, orderBy, take: MAX_LISTED })).map(toThreadRecord);
    const hits = rows.filter(
      (t) =>
        t.id.toLowerCase().includes(needle) ||
        (t.name ?? "").toLowerCase().includes(needle) ||
        t.agentId.toLowerCase().includes(needle) ||
        t.tags.some((tag) => tag.toLowerCase().includes(needle)),
    );
    return { threads: hits.slice(0, input.limit), total: hits.length };
  }
  const [rows, total] = await Promise.all([
    prisma.thread.findMany({ where, orderBy, take: input.limit }),
    prisma.thread.count({ where }),
  ]);
  return { threads: rows.map(toThreadRecord), total };
}
