import type { ToolResult } from "@/server/spec";
import type { RuntimeEvent } from "@/shared/runtime-events";
import { redactDeep } from "../env/redact";
import { newId } from "../ids";
import { prepareMessage, type PreparedMessage } from "../kernel/message-writer";
import { resultMetadata, resultText, type SubagentEntry, type ToolCallContext } from "../kernel/tool-call-context";
import { toSpecMessage } from "../kernel/to-spec";
import type { ToolCallRecord } from "../ports";
import { beginToolSpan } from "../tracing";
import { spawnGroup, subagentRequest } from "./invoke";
import { createChildTx, prepareSpawn, type PreparedSpawn, type SpawnRequest } from "./spawn";
import { initiatedText } from "./texts";

/** A call of a step that spawns a non-blocking subagent, with its parsed arguments. */
export interface BatchedCall {
  call: ToolCallRecord;
  entry: SubagentEntry;
  args: Record<string, unknown>;
}

/**
 * Whether a call may be answered in a batch: a non-blocking, non-resumable subagent that is defined, needs no scoped
 * variable at spawn and has no attachment to copy (those take the one-call path, which asks for variables and copies
 * files). The caller checks that no hook of the thread's prompt would see the calls one by one.
 */
export function batchable(tc: Pick<ToolCallContext, "ctx">, entry: SubagentEntry, args: Record<string, unknown>): boolean {
  const c = entry.config;
  if (c.blocking || c.resumable || !tc.ctx.defs.agent(entry.name)) return false;
  if (tc.ctx.defs.requiredScopedAtSpawn(entry.name).length > 0) return false;
  const files = c.initAttachmentsProperty ? args[c.initAttachmentsProperty] : undefined;
  return files === undefined || files === null || files === "" || (Array.isArray(files) && files.length === 0);
}

interface Plan {
  b: BatchedCall;
  result: ToolResult;
  message: PreparedMessage;
  spawn: { req: SpawnRequest; prepared: PreparedSpawn } | null;
}

/**
 * Consecutive non-blocking subagent calls of one step (a fan-out), answered in one transaction: for each call, in
 * order, the start of the call (`tool.started`), the child (thread, registry entry, first message, its activation's
 * work item) and the call's tool message (`tool.completed`), exactly what the calls store one by one; then one wake of
 * the scheduler, so the children are claimed together. A crash before the commit leaves none of it, and the step's
 * re-run spawns them then (a child found for its call is answered, not spawned again).
 */
export async function spawnBatch(
  tc: ToolCallContext,
  calls: BatchedCall[],
  announced: { id: string; attempt: number } | undefined,
  startedEvent: (call: ToolCallRecord, entry: SubagentEntry, attempt: number) => RuntimeEvent,
): Promise<{ name: string; args: Record<string, unknown>; status: "success" | "error"; text: string }[]> {
  const started = performance.now();
  const spans = calls.map((b) => beginToolSpan(tc.thread.id, b.call.id, b.call.function.name, "subagent"));
  const plans: Plan[] = [];
  let failure: unknown;
  try {
    const group = await spawnGroup(tc);
    const existing = new Map((await tc.deps.persistence.subagents.listByParent(tc.thread.id)).map((c) => [c.toolCallId, c.childId]));
    const prepared = new Map<string, PreparedSpawn>();
    for (const b of calls) {
      const r = subagentRequest(tc, b.entry, b.args);
      let spawn: Plan["spawn"] = null;
      let result: ToolResult;
      if ("error" in r) result = r.error;
      else {
        // Re-run after a restart: a child this call already spawned is the answer.
        const known = existing.get(b.call.id);
        const childId = known && (await tc.deps.persistence.threads.get(known)) ? known : newId();
        if (childId !== known) {
          const req: SpawnRequest = { ...r, parent: tc.thread, toolCallId: b.call.id, spawnGroupId: group, childId };
          let p = prepared.get(b.entry.name);
          if (!p) {
            const got = await prepareSpawn(tc.deps, req);
            if (!got.ok) throw new Error(`spawnBatch: ${b.entry.name} needs scoped variables (${got.missing.join(", ")})`);
            prepared.set(b.entry.name, (p = got.spawn));
          }
          spawn = { req, prepared: p };
        }
        result = { status: "success", result: initiatedText(childId) };
      }
      result = redactDeep(result, tc.ctx.secrets);
      const message = await prepareMessage(tc, {
        role: "tool",
        content: resultText(result),
        name: b.call.function.name,
        toolCalls: null,
        toolCallId: b.call.id,
        toolStatus: result.status,
        reasoningContent: null,
        attachments: null,
        silent: false,
        depth: 0,
        side: tc.side,
        metadata: resultMetadata(result),
        subagentId: null,
      });
      plans.push({ b, result, message, spawn });
    }
    await tc.deps.events.commit(async (tx, emit) => {
      // A call has one result; the thread is locked first, as for any tool result (see prepareResult).
      await tx.threads.lock(tc.thread.id);
      const later = await tx.messages.list(tc.thread.id, { afterSeq: tc.assistantMessage.seq, includeSilent: true });
      const answered = new Set(later.filter((m) => m.role === "tool").map((m) => m.toolCallId));
      const durationMs = Math.round(performance.now() - started);
      for (const { b, result, message, spawn } of plans) {
        if (answered.has(b.call.id)) continue;
        const attempt = b.call.id === announced?.id ? announced.attempt : await tx.toolCallRuns.start(tc.assistantMessage.id, b.call.id);
        if (b.call.id !== announced?.id) await emit(tc.thread.id, startedEvent(b.call, b.entry, attempt));
        if (spawn) await createChildTx(tc.deps, tx, emit, spawn.req, spawn.prepared);
        const m = await tx.messages.append(tc.thread.id, message);
        await emit(tc.thread.id, { type: "message.created", message: toSpecMessage(m) });
        await emit(tc.thread.id, { type: "tool.completed", toolCallId: b.call.id, name: b.call.function.name, status: result.status, durationMs, messageId: m.id, attempt });
      }
    });
    tc.deps.wake();
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    spans.forEach((span, i) => span.end(failure !== undefined ? { error: failure } : { status: plans[i]?.result.status ?? "error" }));
  }
  return plans.map(({ b, result }) => ({ name: b.call.function.name, args: b.args, status: result.status, text: resultText(result) }));
}
