import type { StopReason, ThreadRecord, ThreadStatus } from "@/server/runtime/ports";
import type { NewThread, ThreadListFilter, ThreadPatch, ThreadStore } from "@/server/runtime/ports";
import type { Db } from "../client";
import type { Thread } from "../generated/prisma/client";
import { parseJsonColumn, toJsonColumn } from "../json";
import type { ThreadLock } from "../row-lock";
import { tagsSchema, threadStateSchema } from "./row-schemas";

export function toThreadRecord(row: Thread): ThreadRecord {
  return withParsedState(row, undefined);
}

/** `toThreadRecord` with the row's state already parsed (and checked) from the same text, when the caller has it. */
export function withParsedState(row: Thread, parsedState: ThreadRecord["state"] | undefined): ThreadRecord {
  return {
    id: row.id,
    agentId: row.agentId,
    rootAgentId: row.rootAgentId,
    parentId: row.parentId,
    userId: row.userId,
    status: row.status as ThreadStatus,
    stopReason: (row.stopReason as StopReason | null) ?? null,
    terminatedAt: row.terminatedAt === null ? null : Number(row.terminatedAt),
    stopRequestedAt: row.stopRequestedAt === null ? null : Number(row.stopRequestedAt),
    tags: parseJsonColumn(tagsSchema, row.tags, { model: "Thread", field: "tags", id: row.id }),
    name: row.name,
    state:
      parsedState ?? (parseJsonColumn(threadStateSchema, row.state, { model: "Thread", field: "state", id: row.id }) as ThreadRecord["state"]),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastActivityAt: row.lastActivityAt,
    version: row.version,
  };
}

/** `lock`: set in a transaction; `get` then locks the thread row until commit (see row-lock.ts). */
export function threadStore(db: Db, lock: ThreadLock | null = null): ThreadStore {
  return {
    async create(input: NewThread) {
      const row = await db.thread.create({
        data: {
          ...(input.id ? { id: input.id } : {}),
          agentId: input.agentId,
          rootAgentId: input.agentId,
          parentId: input.parentId ?? null,
          userId: input.userId ?? null,
          status: input.status ?? "idle",
          tags: toJsonColumn(input.tags ?? [], { model: "Thread", field: "tags" }),
          name: input.name ?? null,
          state: toJsonColumn(input.state, { model: "Thread", field: "state" }),
        },
      });
      return toThreadRecord(row);
    },
    async lock(id) {
      await lock?.(id);
    },
    async get(id) {
      if (lock) {
        await lock(id);
        const held = await lock.row(id);
        if (held !== undefined) return held ? toThreadRecord(held) : null;
      }
      const row = await db.thread.findUnique({ where: { id } });
      return row ? toThreadRecord(row) : null;
    },
    async update(id, patch: ThreadPatch) {
      const row = await db.thread.update({
        where: { id },
        data: {
          ...(patch.agentId !== undefined ? { agentId: patch.agentId } : {}),
          ...(patch.status !== undefined ? { status: patch.status } : {}),
          ...(patch.stopReason !== undefined ? { stopReason: patch.stopReason } : {}),
          ...(patch.terminatedAt !== undefined ? { terminatedAt: patch.terminatedAt === null ? null : BigInt(patch.terminatedAt) } : {}),
          ...(patch.stopRequestedAt !== undefined
            ? { stopRequestedAt: patch.stopRequestedAt === null ? null : BigInt(patch.stopRequestedAt) }
            : {}),
          ...(patch.tags !== undefined ? { tags: toJsonColumn(patch.tags, { model: "Thread", field: "tags", id }) } : {}),
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.state !== undefined
            ? { state: toJsonColumn(patch.state, { model: "Thread", field: "state", id }), activeSide: patch.state.turn?.side ?? "a" }
            : {}),
          version: { increment: 1 },
          lastActivityAt: new Date(),
        },
      });
      lock?.wrote(id, row);
      return toThreadRecord(row);
    },
    async list(f: ThreadListFilter) {
      const where = {
        ...(f.agentId ? { agentId: f.agentId } : {}),
        ...(f.parentId !== undefined ? { parentId: f.parentId } : {}),
        ...(f.status ? { status: f.status } : {}),
        ...(f.userId ? { userId: f.userId } : {}),
      };
      // Ties (same millisecond) are broken by id, so that pages never overlap on either database.
      const limit = f.limit ?? 50;
      const offset = f.offset ?? 0;
      if (f.search && f.search.trim()) {
        // Search by id, name, agent or tag: tags live in a JSON column, so matching runs here.
        const needle = f.search.trim().toLowerCase();
        const rows = (await db.thread.findMany({ where, orderBy: [{ lastActivityAt: "desc" }, { id: "asc" }], take: 5000 })).map(toThreadRecord);
        const hits = rows.filter(
          (t) =>
            t.id.toLowerCase().includes(needle) ||
            (t.name ?? "").toLowerCase().includes(needle) ||
            t.agentId.toLowerCase().includes(needle) ||
            t.tags.some((tag) => tag.toLowerCase().includes(needle)),
        );
        return { threads: hits.slice(offset, offset + limit), total: hits.length };
      }
      const [rows, total] = await Promise.all([
        db.thread.findMany({ where, orderBy: [{ lastActivityAt: "desc" }, { id: "asc" }], skip: offset, take: limit }),
        db.thread.count({ where }),
      ]);
      return { threads: rows.map(toThreadRecord), total };
    },
    async listRunning() {
      return (await db.thread.findMany({ where: { status: "running" }, select: { id: true } })).map((r) => r.id);
    },
    async pendingAborts(ids) {
      if (ids.length === 0) return [];
      const rows = await db.thread.findMany({
        where: { id: { in: [...ids] }, OR: [{ status: "terminated" }, { stopRequestedAt: { not: null } }] },
        select: { id: true, status: true },
      });
      return rows.map((r) => ({ id: r.id, reason: r.status === "terminated" ? "terminated" : "user_stop" }));
    },
  };
}
