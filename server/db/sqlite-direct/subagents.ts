import { newId } from "@/server/runtime/ids";
import type { SubagentStore } from "@/server/runtime/ports";
import type { SubagentEntry } from "../generated/prisma/client";
import { toEntry } from "../repositories/subagents";
import { bool, readDate, readOptionalDate, sqlDate } from "./columns";
import type { DirectSqlite } from "./connection";
import { guarded } from "./errors";

type Row = Record<string, unknown>;

export function toSubagentRow(r: Row): SubagentEntry {
  return {
    ...(r as unknown as SubagentEntry),
    resumable: bool(r.resumable),
    blocking: bool(r.blocking),
    reportedAt: readOptionalDate(r.reportedAt),
    createdAt: BigInt(r.createdAt as number),
    updatedAt: readDate(r.updatedAt),
  };
}

const COLUMNS = [
  "parentId",
  "childId",
  "name",
  "title",
  "description",
  "resumable",
  "blocking",
  "threadName",
  "spawnGroupId",
  "status",
  "parentCommunication",
  "toolName",
  "toolCallId",
  "createdAt",
] as const;
const INSERT = `INSERT INTO "SubagentEntry" ("id", ${COLUMNS.map((c) => `"${c}"`).join(", ")}, "updatedAt") VALUES (?, ${COLUMNS.map(() => "?").join(", ")}, ?) RETURNING *`;
const PATCHABLE = ["status", "reportedAt", "toolCallId", "blocking"] as const;

/**
 * The registry: its reads of every step (`get`, `listByParent`), and the writes of every spawn and report (`create`,
 * `byToolCall`, `update`). Through Prisma, each of these writes moved the connection's stamp (see connection.ts), so
 * a fan-out of 100 children made every thread's cached rows stale 200 times; here they keep the parents' cached
 * lists current instead (dropped, read again on next use).
 */
export function directSubagents(sql: DirectSqlite, base: SubagentStore): SubagentStore {
  /** The cached lists that hold this child (its parent's). */
  const dropListsOf = (childId: string) => {
    for (const key of sql.children.keysWhere((rows) => rows.some((r) => r.childId === childId))) sql.children.delete(key);
  };
  return {
    ...base,
    async create(e) {
      const now = sqlDate(new Date());
      const row = guarded(() =>
        sql.get<Row>(
          INSERT,
          newId(),
          ...COLUMNS.map((c) => (c === "resumable" || c === "blocking" ? (e[c] ? 1 : 0) : (e[c] ?? null))),
          now,
        ),
      )!;
      sql.children.delete(e.parentId);
      return toEntry(toSubagentRow(row));
    },
    async get(childId) {
      const row = sql.get<Row>(`SELECT * FROM "SubagentEntry" WHERE "childId" = ?`, childId);
      return row ? toEntry(toSubagentRow(row)) : null;
    },
    async byToolCall(parentId, toolCallId) {
      const row = sql.get<Row>(`SELECT * FROM "SubagentEntry" WHERE "parentId" = ? AND "toolCallId" = ? LIMIT 1`, parentId, toolCallId);
      return row ? toEntry(toSubagentRow(row)) : null;
    },
    async listByParent(parentId) {
      // Read twice a step: held while the stamp stays (the writes above drop what they change).
      const stamp = sql.stamp();
      const rows =
        sql.children.get(parentId, stamp) ??
        sql.children.set(parentId, sql.all<Row>(`SELECT * FROM "SubagentEntry" WHERE "parentId" = ? ORDER BY "createdAt" ASC, "id" ASC`, parentId), stamp);
      return rows.map((r) => toEntry(toSubagentRow(r)));
    },
    async update(childId, patch) {
      const sets: string[] = [];
      const args: unknown[] = [];
      for (const key of PATCHABLE) {
        const v = patch[key];
        if (v === undefined) continue;
        sets.push(`"${key}" = ?`);
        args.push(v instanceof Date ? sqlDate(v) : typeof v === "boolean" ? (v ? 1 : 0) : v);
      }
      dropListsOf(childId);
      const row = guarded(() =>
        sql.get<Row>(`UPDATE "SubagentEntry" SET ${[...sets, `"updatedAt" = ?`].join(", ")} WHERE "childId" = ? RETURNING *`, ...args, sqlDate(new Date()), childId),
      );
      if (!row) return base.update(childId, patch); // Prisma's not-found error, as before
      return toEntry(toSubagentRow(row));
    },
  };
}
