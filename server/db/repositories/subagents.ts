import type { SubagentRecord, SubagentStore, VariableRequestRecord, VariableRequestStore } from "@/server/runtime/ports";
import { z } from "zod";
import type { Db } from "../client";
import type { SubagentEntry, VariableRequest } from "../generated/prisma/client";
import { parseJsonColumn, toJsonColumn } from "../json";
import { objectSchema } from "./row-schemas";

export function toEntry(r: SubagentEntry): SubagentRecord {
  return {
    parentId: r.parentId,
    childId: r.childId,
    name: r.name,
    title: r.title,
    description: r.description,
    resumable: r.resumable,
    blocking: r.blocking,
    threadName: r.threadName,
    spawnGroupId: r.spawnGroupId,
    status: r.status,
    parentCommunication: r.parentCommunication === "explicit" ? "explicit" : "implicit",
    toolName: r.toolName,
    toolCallId: r.toolCallId,
    reportedAt: r.reportedAt,
    createdAt: Number(r.createdAt),
    updatedAt: r.updatedAt,
  };
}

export function subagentStore(db: Db): SubagentStore {
  return {
    async create(e) {
      const row = await db.subagentEntry.create({ data: { ...e, createdAt: BigInt(e.createdAt) } });
      return toEntry(row);
    },
    async get(childId) {
      const row = await db.subagentEntry.findUnique({ where: { childId } });
      return row ? toEntry(row) : null;
    },
    async byToolCall(parentId, toolCallId) {
      const row = await db.subagentEntry.findFirst({ where: { parentId, toolCallId } });
      return row ? toEntry(row) : null;
    },
    async listByParent(parentId) {
      return (await db.subagentEntry.findMany({ where: { parentId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toEntry);
    },
    async update(childId, patch) {
      return toEntry(await db.subagentEntry.update({ where: { childId }, data: patch }));
    },
  };
}

const names = z.array(z.string());

function toRequest(r: VariableRequest): VariableRequestRecord {
  const ref = (field: string) => ({ model: "VariableRequest", field, id: r.id });
  return {
    id: r.id,
    parentThreadId: r.parentThreadId,
    agent: r.agent,
    required: parseJsonColumn(names, r.required, ref("required")),
    missing: parseJsonColumn(names, r.missing, ref("missing")),
    payload: parseJsonColumn(objectSchema, r.payload, ref("payload")),
    status: r.status === "fulfilled" ? "fulfilled" : "open",
    createdAt: r.createdAt,
  };
}

export function variableRequestStore(db: Db): VariableRequestStore {
  return {
    async create(input) {
      const row = await db.variableRequest.create({
        data: {
          parentThreadId: input.parentThreadId,
          agent: input.agent,
          required: toJsonColumn(input.required, { model: "VariableRequest", field: "required" }),
          missing: toJsonColumn(input.missing, { model: "VariableRequest", field: "missing" }),
          payload: toJsonColumn(input.payload, { model: "VariableRequest", field: "payload" }),
        },
      });
      return toRequest(row);
    },
    async get(id) {
      const row = await db.variableRequest.findUnique({ where: { id } });
      return row ? toRequest(row) : null;
    },
    async fulfill(id) {
      const r = await db.variableRequest.updateMany({ where: { id, status: "open" }, data: { status: "fulfilled", fulfilledAt: new Date() } });
      return r.count > 0;
    },
  };
}
