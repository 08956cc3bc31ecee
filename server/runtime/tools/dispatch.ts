import { toolResultSchema, type ToolCall, type ToolResult } from "@/server/spec";
import { isAbortError } from "../abort";
import { redactDeep, redactText } from "../env/redact";
import { runHooks } from "../kernel/hook-runner";
import { prepareResult, storeResult, type UnstoredResult } from "./result-message";
import type { ToolCallRecord } from "../ports";
import { hookContext } from "../kernel/scope";
import { invokeLifecycle, invokeSubagent } from "../subagents/invoke";
import { offeredTools } from "../subagents/offered";
import { batchable, spawnBatch, type BatchedCall } from "../subagents/spawn-batch";
import type { RuntimeEvent } from "@/shared/runtime-events";
import type { ExecutedCall } from "../kernel/stop-rules";
import { runCallable } from "./run-callable";
import { runHandoff } from "./run-handoff";
import { approvalGate, approvalMetadata } from "./approval-gate";
import { runMcpTool } from "./run-mcp";
import { runSubprompt } from "./run-subprompt";
import { beginToolSpan } from "../tracing";
import { parseArguments, resultText, toolError, type OfferedTool, type ToolCallContext } from "../kernel/tool-call-context";

export const STOPPED_BEFORE_RUN = "Stopped by the user before this tool ran.";

/**
 * Run a step's tool calls in order and store one tool message per call. A call to a tool the prompt does not offer,
 * malformed arguments, or a throwing tool become tool errors the model sees; the loop goes on.
 */
export async function runToolCalls(
  tc: ToolCallContext,
  calls: ToolCallRecord[],
  /** The call whose `tool.started` (and start count) is already stored with the assistant message that made it. */
  announced?: AnnouncedCall,
  /**
   * Leave the last call's result unstored when it is a plain tool (or a call that failed before running): it comes
   * back as `unstored`, for the caller to store while the next request is in flight.
   */
  holdLast = false,
): Promise<{ executed: ExecutedCall[]; threadChanged: boolean; deferred: number; unstored: UnstoredResult | null }> {
  const executed: ExecutedCall[] = [];
  let threadChanged = false;
  let deferred = 0;
  let unstored: UnstoredResult | null = null;
  const offered = tc.offered ?? (await offeredTools(tc.ctx, await tc.deps.persistence.subagents.listByParent(tc.thread.id))).byName;
  // Without hooks that would see them one by one, a run of non-blocking subagent calls (a fan-out) is one batch.
  const batching = hookContext(tc) === null;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const name = call.function.name;
    if (tc.signal.aborted) {
      await storeResult(tc, call, toolError(STOPPED_BEFORE_RUN, { error_code: "user_stop" }), 0);
      executed.push({ name, args: null, status: "error", text: STOPPED_BEFORE_RUN });
      continue;
    }
    const batch = batching ? subagentRun(tc, calls, i, offered) : [];
    if (batch.length > 0) {
      executed.push(...(await spawnBatch(tc, batch, announced, (c, e, attempt) => toolStartedEvent(tc, c, e, attempt))));
      i += batch.length - 1;
      continue;
    }
    const started = performance.now();
    const entry = offered.get(name);
    const parsed = parseArguments(name, call.function.arguments);
    // A tool with `approval`: the call may wait for a human (no start is counted until it runs), or be answered by a
    // denial. Tools without it pass straight through.
    const gate = entry?.kind === "tool" && parsed.ok ? await approvalGate(tc, call, entry, parsed.args) : undefined;
    if (gate?.kind === "wait") {
      deferred++;
      continue;
    }
    const attempt = gate?.kind === "result" ? 0 : call.id === announced?.id ? announced.attempt : await startCall(tc, call, entry);
    const run = { toolCallId: call.id, attempt };
    const span = beginToolSpan(tc.thread.id, call.id, name, entry?.kind);
    let result: ToolResult | undefined;
    let failure: unknown;
    try {
      try {
        if (gate?.kind === "result") {
          result = gate.result;
        } else if (!entry) {
          const names = [...offered.keys()];
          result = toolError(
            `Tool ${name} is not available at this step.${names.length > 0 ? ` Available tools: ${names.join(", ")}.` : " No tools are available."}`,
            { error_code: "unknown_tool" },
          );
        } else if (!parsed.ok) {
          result = toolError(parsed.error, { error_code: "invalid_arguments" });
        } else if (entry.kind === "tool") {
          const args = gate?.kind === "run" && gate.args ? gate.args : parsed.args;
          result = refusesRepeat(tc, entry.name, attempt) ? interruptedError(name) : await runCallable({ ...tc, run }, entry, args);
        } else if (entry.kind === "mcp") {
          result = await runMcpTool({ ...tc, run }, entry, parsed.args);
        } else if (entry.kind === "subprompt") {
          result = await runSubprompt({ ...tc, run }, entry, parsed.args);
        } else if (entry.kind === "handoff") {
          const h = await runHandoff(tc, entry);
          result = h.result;
          threadChanged ||= h.changed;
        } else {
          const outcome =
            entry.kind === "subagent" ? await invokeSubagent(tc, entry, call.id, parsed.args) : await invokeLifecycle(tc, entry, call.id, parsed.args);
          if ("deferred" in outcome) {
            // A blocking subagent: the call is answered when the child reports (durably, even across restarts).
            deferred++;
            continue;
          }
          result = outcome.result;
        }
      } catch (err) {
        if (!isAbortError(err)) throw err;
        result = toolError("Stopped by the user while this tool was running.", { error_code: "user_stop" });
      }
      result = await afterToolHooks(tc, call, result);
      // A tool that must not run twice has its result stored at once: held, a crash would lose it and refuse the re-run.
      const hold =
        holdLast &&
        !gate?.approval &&
        call === calls[calls.length - 1] &&
        (!entry || !parsed.ok || (entry.kind === "tool" && !refusesRepeat(tc, entry.name, 0)));
      const extra = gate ? redactDeep(approvalMetadata(gate.approval), tc.ctx.secrets) : null;
      const ranAttempt = attempt > 0 ? attempt : undefined;
      if (hold) unstored = await prepareResult(tc, call, result, performance.now() - started, ranAttempt, extra);
      else await storeResult(tc, call, result, performance.now() - started, ranAttempt, extra);
      executed.push({ name, args: parsed.ok ? parsed.args : null, status: result.status, text: resultText(result) });
    } catch (err) {
      failure = err;
      throw err;
    } finally {
      span.end(failure !== undefined ? { error: failure } : { status: result?.status ?? "deferred" });
    }
  }
  return { executed, threadChanged, deferred, unstored };
}

/** The non-blocking subagent calls from `calls[from]` on that can be answered together (see spawnBatch). */
function subagentRun(tc: ToolCallContext, calls: ToolCallRecord[], from: number, offered: Map<string, OfferedTool>): BatchedCall[] {
  const run: BatchedCall[] = [];
  for (const call of calls.slice(from)) {
    const entry = offered.get(call.function.name);
    if (entry?.kind !== "subagent") break;
    const parsed = parseArguments(call.function.name, call.function.arguments);
    if (!parsed.ok || !batchable(tc, entry, parsed.args)) break;
    run.push({ call, entry, args: parsed.args });
  }
  return run;
}

/** A call whose start was stored with the assistant message that made it, and its attempt. */
export interface AnnouncedCall {
  id: string;
  attempt: number;
}

/**
 * Count a start of the call and announce it (`tool.started` with the attempt), in one transaction, before the tool
 * runs: a call that starts again after an interruption finds its earlier start and gets the next attempt.
 */
async function startCall(tc: ToolCallContext, call: ToolCallRecord, entry: OfferedTool | undefined): Promise<number> {
  return tc.deps.events.commit(async (tx, emit) => {
    const attempt = await tx.toolCallRuns.start(tc.assistantMessage.id, call.id);
    await emit(tc.thread.id, toolStartedEvent(tc, call, entry, attempt));
    return attempt;
  });
}

/**
 * Whether a tool's call must not run at this attempt: the tool says `onInterrupt: 'fail'` and the call ran before.
 * With attempt 0: whether the tool says so at all.
 */
function refusesRepeat(tc: ToolCallContext, toolName: string, attempt: number): boolean {
  return attempt !== 1 && tc.ctx.defs.tool(toolName)?.onInterrupt === "fail";
}

/** The result of an interrupted call of an `onInterrupt: 'fail'` tool: not run again; the model is told why. */
export const interruptedError = (name: string): ToolResult =>
  toolError(
    `Tool ${name} was interrupted by a server restart before it finished, and it was not run again because repeating ` +
      "it is not safe. Its effect may or may not have happened: check before calling it again.",
    { error_code: "interrupted" },
  );

/** The `tool.started` event of a call (its arguments with secret values masked) at its `attempt`-th start. */
export function toolStartedEvent(
  tc: Pick<ToolCallContext, "stepId" | "ctx">,
  call: ToolCallRecord,
  entry: OfferedTool | undefined,
  attempt: number,
): RuntimeEvent {
  return {
    type: "tool.started",
    stepId: tc.stepId,
    toolCallId: call.id,
    name: call.function.name,
    kind: entry?.kind ?? "unknown",
    arguments: redactText(call.function.arguments, tc.ctx.secrets),
    attempt,
  };
}

const acceptResult = (out: unknown): ToolResult | undefined => {
  if (out === undefined || out === null) return undefined;
  const parsed = toolResultSchema.safeParse(out);
  if (!parsed.success) throw new Error("the hook returned something that is not a ToolResult ({status: 'success', result} or {status: 'error', error})");
  return parsed.data;
};

/**
 * The tool hooks, in order: `after_tool_call_success` / `after_tool_call_failure` (post-process or recover), then
 * `before_store_tool_result`; finally secret values are redacted before anything is stored, streamed or sent on.
 */
async function afterToolHooks(tc: ToolCallContext, call: ToolCallRecord, result: ToolResult): Promise<ToolResult> {
  const hc = hookContext(tc);
  const spec: ToolCall = { id: call.id, type: "function", function: { ...call.function } };
  let r = result;
  if (hc) {
    r =
      r.status === "success"
        ? await runHooks(hc, "after_tool_call_success", r, (exec, st, v) => Promise.resolve(exec(st, spec, v)), acceptResult)
        : await runHooks(hc, "after_tool_call_failure", r, (exec, st, v) => Promise.resolve(exec(st, spec, new Error(v.status === "error" ? v.error : ""))), acceptResult);
    r = await runHooks(hc, "before_store_tool_result", r, (exec, st, v) => Promise.resolve(exec(st, spec, v)), acceptResult);
  }
  return redactDeep(r, tc.ctx.secrets);
}
