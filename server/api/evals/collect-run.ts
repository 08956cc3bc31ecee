import type { EvalCaseRecord } from "@/server/registry";
import type { ThreadRecord } from "@/server/runtime/ports";
import type { EvalRun } from "@/server/spec";
import type { App } from "../app-context";

const POLL_MS = 100;

/** The thread and every descendant, breadth-first. */
export async function subtree(app: App, rootId: string): Promise<ThreadRecord[]> {
  const root = await app.runtime.getThread(rootId);
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    const { threads } = await app.persistence.threads.list({ parentId: out[i]!.id, limit: 10_000 });
    out.push(...threads);
  }
  return out;
}

/**
 * Waits until the case's thread tree is at rest: no thread of it running, twice in a row (a finished child queues
 * its result on the parent, which then runs again). Resolves false on timeout.
 */
export async function waitForRest(app: App, rootId: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  while (Date.now() < deadline && !signal?.aborted) {
    const tree = await subtree(app, rootId);
    const busy = tree.some((t) => t.status === "running");
    quiet = busy ? 0 : quiet + 1;
    if (quiet >= 2) return true;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return false;
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What the scorers see of a finished case: reply, tool calls and subagents of the whole tree, budgets. */
export async function collectRun(app: App, c: EvalCaseRecord, rootId: string, latencyMs: number): Promise<EvalRun> {
  const tree = await subtree(app, rootId);
  const root = tree[0]!;
  const toolCalls: EvalRun["toolCalls"] = [];
  let reply = "";
  let turns = 0;
  for (const t of tree) {
    const messages = await app.persistence.messages.list(t.id, { includeSilent: true });
    for (const m of messages) {
      // Either side's calls: in a dual_ai thread side B's messages are stored with the role `user`.
      for (const call of m.toolCalls ?? []) toolCalls.push({ name: call.function.name, args: parseArgs(call.function.arguments), threadId: t.id });
      if (t.id === root.id && m.role === "assistant" && m.content && !(m.toolCalls?.length)) {
        reply = m.content;
        turns += 1;
      }
    }
  }
  const totals = await app.persistence.llmLogs.totals(tree.map((t) => t.id));
  return {
    case: {
      id: c.id,
      input: c.input,
      ...(c.expected !== undefined ? { expected: c.expected } : {}),
      ...(c.metadata ? { metadata: c.metadata } : {}),
      ...(c.variables ? { variables: c.variables } : {}),
    },
    reply,
    threadId: root.id,
    status: root.status,
    stopReason: root.stopReason,
    toolCalls,
    subagents: tree.slice(1).map((t) => t.agentId),
    steps: totals.requests,
    turns,
    costUsd: totals.cost,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    latencyMs,
  };
}
