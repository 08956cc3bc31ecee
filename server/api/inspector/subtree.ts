import type { App } from "@/server/worker/app";
import { MAX_NODES, subtreeIdList } from "./node-facts";

/** The thread columns the inspector reads for every node of a tree (never the large JSON state). */
export const nodeSelect = { id: true, agentId: true, name: true } as const;

/** A thread and all its descendants (one recursive query, then one query per 500 threads for their names). */
export async function subtreeRows(app: App, rootId: string, max = MAX_NODES) {
  const { ids, truncated } = await subtreeIdList(app, rootId, max);
  const rows = await inChunks(ids, (chunk) => app.prisma.thread.findMany({ where: { id: { in: chunk } }, select: nodeSelect }));
  return { rows, truncated };
}

/** Run a query over `ids` in chunks of 500 and concatenate the results. */
export async function inChunks<T>(ids: string[], run: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await run(ids.slice(i, i + 500))));
  return out;
}
