import type { PrismaClient } from "../client";

export interface ToolRun {
  durationMs: number;
  status: string;
  /** The run of the call that produced the result: 2 or more after a re-run following a restart. */
  attempt?: number;
}

export interface LastStop {
  reason: string;
  detail: string | null;
  scope: string | null;
  side: string | null;
}

/** The newest `tool.completed` events a conversation's snapshot reads its tool durations from. */
const MAX_TOOL_EVENTS = 10_000;

/** What a conversation snapshot reads from the event log beyond the messages: tool run times and the last stop. */
export function chatSnapshotQueries(prisma: PrismaClient) {
  return {
    /** Duration, outcome and attempt of each tool call, by tool call id (from the `tool.completed` events). */
    async toolRuns(threadId: string): Promise<Record<string, ToolRun>> {
      const events = await prisma.threadEvent.findMany({
        where: { threadId, type: "tool.completed" },
        select: { data: true },
        orderBy: { seq: "desc" },
        take: MAX_TOOL_EVENTS,
      });
      const runs: Record<string, ToolRun> = {};
      for (const e of events) {
        const d = e.data as { toolCallId?: string; durationMs?: number; status?: string; attempt?: number };
        if (d.toolCallId) {
          runs[d.toolCallId] = { durationMs: d.durationMs ?? 0, status: d.status ?? "success", ...(d.attempt !== undefined ? { attempt: d.attempt } : {}) };
        }
      }
      return runs;
    },
    /** Why the thread last stopped (its newest `thread.stopped` event), or null. */
    async lastStop(threadId: string): Promise<LastStop | null> {
      const row = await prisma.threadEvent.findFirst({
        where: { threadId, type: "thread.stopped" },
        select: { data: true },
        orderBy: { seq: "desc" },
      });
      const stop = row?.data as { reason?: string; detail?: string; scope?: string; side?: string } | undefined;
      return stop?.reason ? { reason: stop.reason, detail: stop.detail ?? null, scope: stop.scope ?? null, side: stop.side ?? null } : null;
    },
  };
}
