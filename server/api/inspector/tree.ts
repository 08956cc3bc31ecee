import type { App } from "@/server/worker/app";
import { configuredMode } from "./modes";
import { inChunks, subtreeRows } from "./subtree";

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cost: number;
  requests: number;
}

const zero = (): Usage => ({ inputTokens: 0, outputTokens: 0, cost: 0, requests: 0 });
const add = (a: Usage, b: Usage) => {
  a.inputTokens += b.inputTokens;
  a.outputTokens += b.outputTokens;
  a.cost += b.cost;
  a.requests += b.requests;
};

/** Registry statuses the runtime sets itself; anything else is a child's own `sessionStatus` text. */
const BUILT_IN = new Set(["running", "idle", "failed", "terminated"]);

/**
 * The live tree of a thread's descendants, flattened depth first (children in creation order): each node with its
 * agent, instance name, thread status, status in its parent's registry, mode, spawn group, its own tokens and cost
 * and the roll-up over its subtree. Open scoped-variable requests are listed as pending spawns under their parent.
 */
export async function inspectorTree(app: App, rootId: string) {
  await app.runtime.getThread(rootId);
  const { rows, truncated } = await subtreeRows(app, rootId);
  const ids = rows.map((r) => r.id);
  const [entries, usage, pending] = await Promise.all([
    inChunks(ids, (chunk) => app.prisma.subagentEntry.findMany({ where: { childId: { in: chunk } } })),
    inChunks(ids, (chunk) =>
      app.prisma.llmRequestLog.groupBy({
        by: ["threadId"],
        where: { threadId: { in: chunk } },
        _sum: { inputTokens: true, outputTokens: true, cost: true },
        _count: { _all: true },
      }),
    ),
    inChunks(ids, (chunk) =>
      app.prisma.variableRequest.findMany({
        where: { parentThreadId: { in: chunk }, status: "open" },
        orderBy: { createdAt: "asc" },
      }),
    ),
  ]);
  const entryOf = new Map(entries.map((e) => [e.childId, e]));
  const own = new Map<string, Usage>(
    usage.map((u) => [
      u.threadId,
      {
        inputTokens: u._sum.inputTokens ?? 0,
        outputTokens: u._sum.outputTokens ?? 0,
        cost: u._sum.cost ?? 0,
        requests: u._count._all,
      },
    ]),
  );
  const agentOf = new Map(rows.map((r) => [r.id, r.agentId]));
  const kids = new Map<string, string[]>();
  for (const r of rows) if (r.parentId && r.id !== rootId) kids.set(r.parentId, [...(kids.get(r.parentId) ?? []), r.id]);

  // Roll-ups bottom up (rows are breadth first, so reverse order visits children before parents).
  const subtree = new Map<string, Usage>();
  const size = new Map<string, number>();
  for (let i = rows.length - 1; i >= 0; i--) {
    const id = rows[i]!.id;
    const s = zero();
    add(s, own.get(id) ?? zero());
    let n = 0;
    for (const k of kids.get(id) ?? []) {
      add(s, subtree.get(k)!);
      n += 1 + size.get(k)!;
    }
    subtree.set(id, s);
    size.set(id, n);
  }

  const snap = app.registry.current();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const nodes: ReturnType<typeof nodeOf>[] = [];
  function nodeOf(id: string, depth: number) {
    const r = byId.get(id)!;
    const e = entryOf.get(id);
    const parentAgent = r.parentId ? (agentOf.get(r.parentId) ?? null) : null;
    const mode = configuredMode(snap, parentAgent, r.agentId);
    const agent = snap.agents.get(r.agentId);
    return {
      id,
      parentId: id === rootId ? null : r.parentId,
      depth,
      agentId: r.agentId,
      agentTitle: agent?.definition.title ?? r.agentId,
      name: e?.threadName ?? r.name,
      threadStatus: r.status,
      stopReason: r.stopReason,
      registryStatus: e?.status ?? null,
      customStatus: e ? !BUILT_IN.has(e.status) : false,
      blocking: e?.blocking ?? null,
      resumable: e?.resumable ?? null,
      communication: e ? (e.parentCommunication === "explicit" ? "explicit" : "implicit") : null,
      immediate: mode.immediate,
      optional: mode.optional,
      spawnGroupId: e?.spawnGroupId ?? null,
      toolName: e?.toolName ?? null,
      createdAt: r.createdAt.getTime(),
      lastActivityAt: r.lastActivityAt.getTime(),
      childCount: (kids.get(id) ?? []).length,
      descendants: size.get(id) ?? 0,
      own: own.get(id) ?? zero(),
      subtree: subtree.get(id) ?? zero(),
    };
  }
  // Depth-first order, iteratively (a deep tree must not overflow the stack).
  const stack: [string, number][] = [[rootId, 0]];
  while (stack.length > 0) {
    const [id, depth] = stack.pop()!;
    nodes.push(nodeOf(id, depth));
    const k = kids.get(id) ?? [];
    for (let i = k.length - 1; i >= 0; i--) stack.push([k[i]!, depth + 1]);
  }
  return {
    rootId,
    nodes,
    truncated,
    pending: pending.map((p) => ({
      requestId: p.id,
      parentId: p.parentThreadId,
      agent: p.agent,
      name: ((p.payload as { threadName?: unknown } | null)?.threadName as string | null | undefined) ?? null,
      missing: p.missing as string[],
      required: p.required as string[],
      createdAt: p.createdAt.getTime(),
    })),
  };
}

export type InspectorTree = Awaited<ReturnType<typeof inspectorTree>>;
