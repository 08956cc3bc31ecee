import type { App } from "@/server/worker/app";

/** The thread columns the inspector reads for every node of a tree (never the large JSON state). */
export const nodeSelect = {
  id: true,
  parentId: true,
  agentId: true,
  name: true,
  status: true,
  stopReason: true,
  terminatedAt: true,
  createdAt: true,
  lastActivityAt: true,
} as const;

export interface SubtreeRow {
  id: string;
  parentId: string | null;
  agentId: string;
  name: string | null;
  status: string;
  stopReason: string | null;
  terminatedAt: bigint | null;
  createdAt: Date;
  lastActivityAt: Date;
}

/** A thread and all its descendants, breadth first, capped at `max` threads. */
export async function subtreeRows(app: App, rootId: string, max = 5_000): Promise<{ rows: SubtreeRow[]; truncated: boolean }> {
  const root = await app.prisma.thread.findUnique({ where: { id: rootId }, select: nodeSelect });
  if (!root) return { rows: [], truncated: false };
  const rows: SubtreeRow[] = [root];
  let frontier = [root.id];
  while (frontier.length > 0 && rows.length < max) {
    const kids: SubtreeRow[] = [];
    // Chunks keep the IN list well under SQLite's variable limit.
    for (let i = 0; i < frontier.length; i += 500) {
      kids.push(
        ...(await app.prisma.thread.findMany({
          where: { parentId: { in: frontier.slice(i, i + 500) } },
          select: nodeSelect,
          orderBy: { createdAt: "asc" },
        })),
      );
    }
    rows.push(...kids);
    frontier = kids.map((k) => k.id);
  }
  return { rows: rows.slice(0, max), truncated: rows.length > max || (rows.length >= max && frontier.length > 0) };
}

/** Ids of a thread and its descendants. */
export async function subtreeIds(app: App, rootId: string, max = 5_000): Promise<string[]> {
  return (await subtreeRows(app, rootId, max)).rows.map((r) => r.id);
}

/** Run a query over `ids` in chunks of 500 and concatenate the results. */
export async function inChunks<T>(ids: string[], run: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await run(ids.slice(i, i + 500))));
  return out;
}
