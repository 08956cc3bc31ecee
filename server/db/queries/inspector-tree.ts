import { Prisma, type PrismaClient } from "../client";

/** The cap on a tree's size (threads). */
export const MAX_TREE_NODES = 5_000;

/**
 * One thread of an inspector tree as stored: the thread, its entry in its parent's registry, its parent's agent and
 * the sums of its LLM requests. Values are normalised across drivers (times in ms, booleans, numbers).
 */
export interface ThreadFactRow {
  id: string;
  parentId: string | null;
  agentId: string;
  parentAgentId: string | null;
  threadName: string | null;
  status: string;
  stopReason: string | null;
  createdAt: number;
  lastActivityAt: number;
  entryName: string | null;
  registryStatus: string | null;
  blocking: boolean | null;
  resumable: boolean | null;
  parentCommunication: string | null;
  spawnGroupId: string | null;
  toolName: string | null;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  requests: number;
}

type RawFactRow = Omit<ThreadFactRow, "createdAt" | "lastActivityAt" | "blocking" | "resumable" | "inputTokens" | "outputTokens" | "cost" | "requests"> &
  Record<"createdAt" | "lastActivityAt" | "blocking" | "resumable" | "inputTokens" | "outputTokens" | "cost" | "requests", unknown>;

// Raw rows differ by driver (SQLite: 0/1, ISO text or epoch numbers, bigint counts; PostgreSQL: booleans, Dates).
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const bool = (v: unknown) => (v === null || v === undefined ? null : v === true || v === 1 || v === 1n || v === "1" || v === "true");
function ms(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === "number" || typeof v === "bigint") return Number(v);
  if (typeof v === "string") return /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  return 0;
}

const normalise = (r: RawFactRow): ThreadFactRow => ({
  ...r,
  createdAt: ms(r.createdAt),
  lastActivityAt: ms(r.lastActivityAt),
  blocking: bool(r.blocking),
  resumable: bool(r.resumable),
  inputTokens: num(r.inputTokens),
  outputTokens: num(r.outputTokens),
  cost: num(r.cost),
  requests: num(r.requests),
});

/**
 * One statement for the facts of many threads: each thread joined with its entry in its parent's registry, its
 * parent's agent and the sum of its LLM requests. `members` is a SQL fragment naming the threads as `sub(id)`. The
 * SQL is the same on SQLite and PostgreSQL.
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

/** The thread `rootId` and all its descendants (a recursive CTE), as one statement. */
const subtreeOf = (rootId: string) => Prisma.sql`RECURSIVE sub("id", "depth") AS (
  SELECT "id", 0 FROM "Thread" WHERE "id" = ${rootId}
  UNION ALL
  SELECT c."id", sub."depth" + 1 FROM "Thread" c JOIN sub ON c."parentId" = sub."id" WHERE sub."depth" < 10000
)`;

/** The inspector's tree reads: every thread of a subtree, or some threads, in one statement whatever the depth. */
export function inspectorTreeQueries(prisma: PrismaClient) {
  return {
    /** The fact rows of every thread of a subtree (root first is not guaranteed); at most `max`. */
    async subtreeFacts(rootId: string, max = MAX_TREE_NODES): Promise<{ rows: ThreadFactRow[]; truncated: boolean }> {
      const rows = await prisma.$queryRaw<RawFactRow[]>(factsSql(subtreeOf(rootId), max + 1));
      return { rows: rows.slice(0, max).map(normalise), truncated: rows.length > max };
    },
    /** The fact rows of the given threads (those that exist), one statement per 500 ids. */
    async factsOf(ids: readonly string[]): Promise<ThreadFactRow[]> {
      const out: ThreadFactRow[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const members = Prisma.sql`sub("id") AS (SELECT "id" FROM "Thread" WHERE "id" IN (${Prisma.join(chunk)}))`;
        out.push(...(await prisma.$queryRaw<RawFactRow[]>(factsSql(members, chunk.length))).map(normalise));
      }
      return out;
    },
    /** Ids of a thread and its descendants (one statement); at most `max`. */
    async subtreeIds(rootId: string, max = MAX_TREE_NODES): Promise<{ ids: string[]; truncated: boolean }> {
      const rows = await prisma.$queryRaw<{ id: string }[]>(Prisma.sql`WITH ${subtreeOf(rootId)} SELECT "id" FROM sub LIMIT ${max + 1}`);
      return { ids: rows.slice(0, max).map((r) => r.id), truncated: rows.length > max };
    },
  };
}
