import { NotFoundError } from "@/server/runtime/errors";
import { newId } from "@/server/runtime/ids";
import type { ThreadPatch, ThreadRecord, ThreadStore } from "@/server/runtime/ports";
import type { Thread } from "../generated/prisma/client";
import { toJsonText } from "../json";
import { withParsedState } from "../repositories/threads";
import { readDate, readJson, sqlDate } from "./columns";
import type { DirectSqlite } from "./connection";
import { guarded } from "./errors";

type Row = Record<string, unknown>;

/**
 * The record of a `Thread` row, as Prisma's row would map (the shared mapper parses its JSON columns with zod); the
 * state comes from the cache when its text is the one parsed last time.
 */
function toRecord(sql: DirectSqlite, r: Row): ThreadRecord {
  const id = r.id as string;
  const text = r.state as string;
  const held = sql.states.get(id, text);
  const record = withParsedState(toThread(r, held === undefined), held);
  if (held === undefined) sql.states.set(id, text, record.state);
  return record;
}

export function toThread(r: Row, withState: boolean): Thread {
  return {
    ...(r as unknown as Thread),
    terminatedAt: r.terminatedAt === null ? null : BigInt(r.terminatedAt as number),
    stopRequestedAt: r.stopRequestedAt === null ? null : BigInt(r.stopRequestedAt as number),
    tags: readJson(r.tags) as Thread["tags"],
    state: (withState ? readJson(r.state) : null) as Thread["state"],
    createdAt: readDate(r.createdAt),
    updatedAt: readDate(r.updatedAt),
    lastActivityAt: readDate(r.lastActivityAt),
  };
}

/**
 * `get` and `update`, the thread reads and writes of every step, and `create` (every thread and child spawned: through
 * Prisma, a write there also moved the connection's stamp, making every other thread's cached rows stale); the rest
 * stays with the Prisma store.
 */
export function directThreads(sql: DirectSqlite, base: ThreadStore): ThreadStore {
  return {
    ...base,
    async create(input) {
      const id = input.id ?? newId();
      const stateText = toJsonText(input.state, { model: "Thread", field: "state" });
      const now = sqlDate(new Date());
      const stamp = sql.stamp();
      const row = guarded(() =>
        sql.get<Row>(
          `INSERT INTO "Thread" ("id", "agentId", "rootAgentId", "parentId", "userId", "status", "tags", "name", "state", "createdAt", "updatedAt", "lastActivityAt")
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          id,
          input.agentId,
          input.agentId,
          input.parentId ?? null,
          input.userId ?? null,
          input.status ?? "idle",
          toJsonText(input.tags ?? [], { model: "Thread", field: "tags" }),
          input.name ?? null,
          stateText,
          now,
          now,
          now,
        ),
      )!;
      sql.rows.set(id, row, stamp);
      sql.states.set(id, stateText, JSON.parse(stateText) as ThreadRecord["state"]);
      return toRecord(sql, row);
    },
    async get(id) {
      // Read several times a step: the row is held while the stamp stays (the stamp first, then the read). The
      // version is checked for each read (see `stamp`): the row says whether a stop or terminate is pending.
      const stamp = sql.stamp(true);
      let row = sql.rows.get(id, stamp);
      if (!row) {
        row = sql.get<Row>(`SELECT * FROM "Thread" WHERE "id" = ?`, id);
        if (row) sql.rows.set(id, row, stamp);
      }
      return row ? toRecord(sql, row) : null;
    },
    async update(id, patch: ThreadPatch) {
      const update = threadUpdate(id, patch);
      const stamp = sql.stamp();
      const row = sql.get<Row>(update.text, ...update.args);
      if (!row) throw new NotFoundError(`Thread ${id} not found`);
      sql.rows.set(id, row, stamp);
      // The state just written, read back from its own text: a typed state the runtime built needs no schema check
      // (the next read of this text, this step's, finds it here).
      if (update.stateText !== undefined) sql.states.set(id, update.stateText, JSON.parse(update.stateText) as ThreadRecord["state"]);
      return toRecord(sql, row);
    },
  };
}

/**
 * The UPDATE statement of a thread patch (with `?` placeholders; the PostgreSQL runner numbers them), bumping the row's
 * version and activity times and returning the row; `stateText` is the state's JSON text when the patch has one.
 */
export function threadUpdate(
  id: string,
  patch: ThreadPatch,
): { text: string; args: unknown[]; stateText?: string; columns: Row } {
  const sets: string[] = [];
  const args: unknown[] = [];
  const columns: Row = {};
  const set = (column: string, value: unknown) => {
    sets.push(`"${column}" = ?`);
    args.push(value);
    columns[column] = value;
  };
  if (patch.agentId !== undefined) set("agentId", patch.agentId);
  if (patch.status !== undefined) set("status", patch.status);
  if (patch.stopReason !== undefined) set("stopReason", patch.stopReason);
  if (patch.terminatedAt !== undefined) set("terminatedAt", patch.terminatedAt);
  if (patch.stopRequestedAt !== undefined) set("stopRequestedAt", patch.stopRequestedAt);
  if (patch.tags !== undefined) set("tags", toJsonText(patch.tags, { model: "Thread", field: "tags", id }));
  if (patch.name !== undefined) set("name", patch.name);
  let stateText: string | undefined;
  if (patch.state !== undefined) {
    stateText = toJsonText(patch.state, { model: "Thread", field: "state", id });
    set("state", stateText);
    set("activeSide", patch.state.turn?.side ?? "a");
  }
  const now = sqlDate(new Date());
  columns.lastActivityAt = now;
  columns.updatedAt = now;
  return {
    text: `UPDATE "Thread" SET ${sets.join(", ")}${sets.length ? ", " : ""}"version" = "version" + 1, "lastActivityAt" = ?, "updatedAt" = ? WHERE "id" = ? RETURNING *`,
    args: [...args, now, now, id],
    ...(stateText !== undefined ? { stateText } : {}),
    columns,
  };
}
