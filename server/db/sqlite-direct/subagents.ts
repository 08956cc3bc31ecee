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
 * a fan-out of 100 children made every thread's cached rows stale 200 times; here they keep the parent's cached list
 * current instead. The list is held as records (each spawn of a fan-out reads its parent's whole list): a read hands
 * out copies.
 */
export function directSubagents(sql: DirectSqlite, base: SubagentStore): SubagentStore {
  return {
    ...base,
    async create(e) {
      const stamp = sql.stamp();
      const row = guarded(() =>
        sql.get<Row>(
          INSERT,
          newId(),
          ...COLUMNS.map((c) => (c === "resumable" || c === "blocking" ? (e[c] ? 1 : 0) : (e[c] ?? null))),
          sqlDate(new Date()),
        ),
      )!;
      const entry = toEntry(toSubagentRow(row));
      // Listed by (createdAt, id): a newer entry goes last (ids made here increase); any other order is read again.
      const last = sql.children.get(e.parentId, stamp)?.at(-1);
      if (!last || last.createdAt < entry.createdAt) sql.children.patch(e.parentId, stamp, (list) => [...list, entry]);
      else sql.children.delete(e.parentId);
      return { ...entry };
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
      // Read twice a step and by every spawn: held while the stamp stays (the writes above keep it current).
      const stamp = sql.stamp();
      const list =
        sql.children.get(parentId, stamp) ??
        sql.children.set(
          parentId,
          sql.all<Row>(`SELECT * FROM "SubagentEntry" WHERE "parentId" = ? ORDER BY "createdAt" ASC, "id" ASC`, parentId).map((r) => toEntry(toSubagentRow(r))),
          stamp,
        );
      return list.map((r) => ({ ...r }));
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
      const stamp = sql.stamp();
      const row = guarded(() =>
        sql.get<Row>(`UPDATE "SubagentEntry" SET ${[...sets, `"updatedAt" = ?`].join(", ")} WHERE "childId" = ? RETURNING *`, ...args, sqlDate(new Date()), childId),
      );
      if (!row) return base.update(childId, patch); // Prisma's not-found error, as before
      const entry = toEntry(toSubagentRow(row));
      for (const key of sql.children.keysWhere((list) => list.some((r) => r.childId === childId))) {
        sql.children.patch(key, stamp, (list) => list.map((r) => (r.childId === childId ? entry : r)));
      }
      return { ...entry };
    },
  };
}
