import type { PrismaClient } from "../client";
import { inChunks } from "./in-chunks";

/** An open scoped-variable request: a spawn waiting for variables, shown under its parent. */
export interface OpenVariableRequest {
  id: string;
  parentThreadId: string;
  agent: string;
  /** The name the child thread will get, from the spawn's payload. */
  threadName: string | null;
  missing: string[];
  required: string[];
  createdAt: Date;
}

/** Open scoped-variable requests of these parent threads, oldest first. */
export async function openVariableRequests(prisma: PrismaClient, parentIds: string[]): Promise<OpenVariableRequest[]> {
  const rows = await inChunks(parentIds, (chunk) =>
    prisma.variableRequest.findMany({ where: { parentThreadId: { in: chunk }, status: "open" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  );
  return rows.map((r) => ({
    id: r.id,
    parentThreadId: r.parentThreadId,
    agent: r.agent,
    threadName: ((r.payload as { threadName?: unknown } | null)?.threadName as string | null | undefined) ?? null,
    missing: r.missing as string[],
    required: r.required as string[],
    createdAt: r.createdAt,
  }));
}
