import { Prisma } from "@/server/db/client";
import type { App } from "@/server/worker/app";
import { configuredMode } from "./modes";
import type { NodeFacts } from "./tree-shape";

/** Registry statuses the runtime sets itself; anything else is a child's own `sessionStatus` text. */
const BUILT_IN = new Set(["running", "idle", "failed", "terminated"]);

/** The cap on a tree's size (threads). */
export const MAX_NODES = 5_000;

interface FactRow {
  id: string;
  parentId: string | null;
  agentId: string;
  parentAgentId: string | null;
  threadName: string | null;
  status: string;
  stopReason: string | null;
  createdAt: unknown;
  lastActivityAt: unknown;
  entryName: string | null;
  registryStatus: string | null;
  blocking: unknown;
  resumable: unknown;
  parentCommunication: string | null;
  spawnGroupId: string | null;
  toolName: string | null;
  inputTokens: unknown;
  outputTokens: unknown;
  cost: unknown;
  requests: unknown;
}

// Raw rows differ by driver (SQLite: 0/1, ISO text or epoch numbers, bigint counts; PostgreSQL: booleans, Dates).
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const bool = (v: unknown) => (v === null || v === undefined ? null : v === true || v === 1 || v === 1n || v === "1" || v === "true");
function ms(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === "number" || typeof v === "bigint") return Number(v);
  if (typeof v === "string") return /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  return 0;
}

/**
 * One statement for the facts of many threads: each thread joined with its entry in its parent's registry, its
 * parent's agent and the sum of its LLM requests. `members` is a SQL fragment naming the threads as `sub(id)`.
 */
function factsSql(members: Prisma.Sql, limit: number): Prisma.Sql {
  return Prisma.sql`WITH ${members}
SELECT t."id", t."parentId", t."agentId", p."agentId" AS "parentAgentId", t."name" AS "threadName", t."status", t."stopReason",
  t."createdAt", t."lastActivityAt", e."threadName" AS "entryName", e."status" AS "registryStatus", e."blocking", e."resumable",
  e."parentCommunication", e."spawnGroupId", e."toolName",
  u."inputTokens", u."outputTokens", u."cost", u."requests"
FROM sub s
JOIN "Thread" t ON t."id" = s."id"
LEFT JOIN "Thread" p ON p."id" = t."parentId"
LEFT JOIN "SubagentEntry" e ON e."childId" = t."id"
LEFT JOIN (
  SELECT l."threadId", SUM(l."inputTokens") AS "inputTokens", SUM(l."outputTokens") AS "outputTokens", SUM(l."cost") AS "cost",
    COUNT(*) AS "requests"
  FROM "LlmRequestLog" l JOIN sub s2 ON l."threadId" = s2."id"
  GROUP BY l."threadId"
) u ON u."threadId" = t."id"
LIMIT ${limit}`;
}

function toFacts(app: App, rows: FactRow[]): NodeFacts[] {
  const snap = app.registry.current();
  return rows.map((r) => {
    const mode = configuredMode(snap, r.parentAgentId, r.agentId);
    const status = r.registryStatus;
    return {
      id: r.id,
      parentId: r.parentId,
      agentId: r.agentId,
      agentTitle: snap.agents.get(r.agentId)?.definition.title ?? r.agentId,
      name: r.entryName ?? r.threadName,
      threadStatus: r.status,
      stopReason: r.stopReason,
      registryStatus: status,
      customStatus: status !== null && !BUILT_IN.has(status),
      blocking: bool(r.blocking),
      resumable: bool(r.resumable),
      communication: status === null ? null : r.parentCommunication === "explicit" ? "explicit" : "implicit",
      immediate: mode.immediate,
      optional: mode.optional,
      spawnGroupId: r.spawnGroupId,
      toolName: r.toolName,
      createdAt: ms(r.createdAt),
      lastActivityAt: ms(r.lastActivityAt),
      own: { inputTokens: num(r.inputTokens), outputTokens: num(r.outputTokens), cost: num(r.cost), requests: num(r.requests) },
    };
  });
}

/** The thread `rootId` and all its descendants (a recursive CTE), as one statement. */
const subtreeOf = (rootId: string) => Prisma.sql`RECURSIVE sub("id", "depth") AS (
  SELECT "id", 0 FROM "Thread" WHERE "id" = ${rootId}
  UNION ALL
  SELECT c."id", sub."depth" + 1 FROM "Thread" c JOIN sub ON c."parentId" = sub."id" WHERE sub."depth" < 10000
)`;

/** The facts of every thread of a subtree in one SQL statement (root first is not guaranteed; see assembleTree). */
export async function subtreeFacts(app: App, rootId: string, max = MAX_NODES): Promise<{ facts: NodeFacts[]; truncated: boolean }> {
  const rows = await app.prisma.$queryRaw<FactRow[]>(factsSql(subtreeOf(rootId), max + 1));
  return { facts: toFacts(app, rows.slice(0, max)), truncated: rows.length > max };
}

/** The facts of the given threads (those that exist), one statement per 500 ids. */
export async function factsOf(app: App, ids: readonly string[]): Promise<NodeFacts[]> {
  const out: NodeFacts[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const members = Prisma.sql`sub("id") AS (SELECT "id" FROM "Thread" WHERE "id" IN (${Prisma.join(chunk)}))`;
    out.push(...toFacts(app, await app.prisma.$queryRaw<FactRow[]>(factsSql(members, chunk.length))));
  }
  return out;
}

/** Ids of a thread and its descendants (one statement). */
export async function subtreeIdList(app: App, rootId: string, max = MAX_NODES): Promise<{ ids: string[]; truncated: boolean }> {
  const rows = await app.prisma.$queryRaw<{ id: string }[]>(Prisma.sql`WITH ${subtreeOf(rootId)} SELECT "id" FROM sub LIMIT ${max + 1}`);
  return { ids: rows.slice(0, max).map((r) => r.id), truncated: rows.length > max };
}
