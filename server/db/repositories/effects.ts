import type { EffectStatus, EffectStore, ScheduledEffectRecord } from "@/server/runtime/ports";
import type { Db } from "../client";
import type { ScheduledEffect } from "../generated/prisma/client";
import { parseJsonColumn, toJsonColumn } from "../json";
import { objectSchema } from "./row-schemas";

function toEffect(r: ScheduledEffect): ScheduledEffectRecord {
  return {
    id: r.id,
    threadId: r.threadId,
    name: r.name,
    args: parseJsonColumn(objectSchema, r.args, { model: "ScheduledEffect", field: "args", id: r.id }),
    runAt: r.runAt,
    status: r.status as EffectStatus,
    attempts: r.attempts,
    lastError: r.lastError,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function effectStore(db: Db): EffectStore {
  return {
    async create(input) {
      const row = await db.scheduledEffect.create({
        data: { threadId: input.threadId, name: input.name, args: toJsonColumn(input.args, { model: "ScheduledEffect", field: "args" }), runAt: input.runAt },
      });
      return toEffect(row);
    },
    async get(id) {
      const row = await db.scheduledEffect.findUnique({ where: { id } });
      return row ? toEffect(row) : null;
    },
    async list(threadId, f = {}) {
      const rows = await db.scheduledEffect.findMany({
        where: { threadId, ...(f.name ? { name: f.name } : {}), ...(f.status ? { status: { in: f.status } } : {}) },
        orderBy: [{ runAt: "asc" }, { id: "asc" }],
      });
      return rows.map(toEffect);
    },
    async update(id, patch) {
      return toEffect(await db.scheduledEffect.update({ where: { id }, data: patch }));
    },
  };
}
