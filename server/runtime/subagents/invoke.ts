import type { ToolResult } from "@/server/spec";
import { ValidationError } from "../errors";
import { freePath, resolveAttachments } from "../files/attachments";
import type { AttachmentRecord, Stores, SubagentRecord } from "../ports";
import { toolError, type OfferedTool, type SubagentEntry, type ToolCallContext } from "../kernel/tool-call-context";
import { spawnChild, type SpawnRequest } from "./spawn";
import { blockingResultText, initiatedText, terminatedText } from "./texts";

export type SubagentOutcome = { result: ToolResult } | { deferred: true };

const str = (v: unknown): string => (v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v));
const paths = (v: unknown): string[] =>
  typeof v === "string" && v ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.length > 0) : [];
const roleFor = (e: SubagentEntry): "user" | "assistant" => (e.config.resumable && e.config.resumable.receives_messages === "side_b" ? "assistant" : "user");

/** Spawn (or, after a restart, find) the child and answer the call: now (non-blocking), or when the child reports. */
async function spawnAndAnswer(tc: ToolCallContext, callId: string, req: Omit<SpawnRequest, "parent" | "toolCallId" | "spawnGroupId">, args: Record<string, unknown>): Promise<SubagentOutcome> {
  let spawned;
  try {
    spawned = await spawnChild(tc.deps, { ...req, parent: tc.thread, toolCallId: callId, spawnGroupId: await spawnGroup(tc) });
  } catch (err) {
    if (err instanceof ValidationError) return { result: toolError(err.message) };
    throw err;
  }
  if (!spawned.ok) {
    const request = await tc.deps.persistence.variableRequests.create({
      parentThreadId: tc.thread.id,
      agent: req.agentName,
      required: spawned.required,
      missing: spawned.missing,
      payload: { ...req, args } as unknown as Record<string, unknown>,
    });
    const endpoint = `/api/threads/${tc.thread.id}/variables/${request.id}`;
    return {
      result: toolError(
        `Subagent ${req.agentName} needs values for its scoped variables ${spawned.missing.join(", ")} before it can start. ` +
          `Ask a person to provide them at ${endpoint}; the subagent starts as soon as they are stored.`,
        { error_code: "subagent_env_required", error_data: { request_id: request.id, endpoint, required: spawned.required, missing: spawned.missing, agent: req.agentName } },
      ),
    };
  }
  if (req.blocking && spawned.existed && spawned.child.status === "terminated") {
    // Re-run after a restart: the child ended without answering this call (a report would have answered it).
    return { result: toolError(blockingResultText(spawned.child.id, terminatedText(spawned.child.id), [])) };
  }
  if (req.blocking) return { deferred: true };
  return { result: { status: "success", result: initiatedText(spawned.child.id) } };
}

/**
 * Instances created in one step share a spawn group: the step id, or (a step finished after a restart, whose id is
 * new) the group of a sibling the same assistant message already spawned.
 */
export async function spawnGroup(tc: ToolCallContext): Promise<string | null> {
  const ids = new Set((tc.assistantMessage.toolCalls ?? []).map((c) => c.id));
  const siblings = (await tc.deps.persistence.subagents.listByParent(tc.thread.id)).filter((c) => c.toolCallId && ids.has(c.toolCallId));
  return siblings.find((c) => c.spawnGroupId)?.spawnGroupId ?? (tc.stepId || null);
}

/** A non-resumable subagent called under its own name (spec §7.3): blocking waits for the child, else returns at once. */
export async function invokeSubagent(tc: ToolCallContext, entry: SubagentEntry, callId: string, args: Record<string, unknown>): Promise<SubagentOutcome> {
  const req = subagentRequest(tc, entry, args);
  return "error" in req ? { result: req.error } : spawnAndAnswer(tc, callId, req, args);
}

/** A call of a non-resumable subagent as a spawn request, or the tool error its arguments earn (the prompt's schema). */
export function subagentRequest(
  tc: Pick<ToolCallContext, "ctx">,
  entry: SubagentEntry,
  args: Record<string, unknown>,
): Omit<SpawnRequest, "parent" | "toolCallId" | "spawnGroupId"> | { error: ToolResult } {
  const agent = tc.ctx.defs.agent(entry.name);
  const schema = agent ? tc.ctx.defs.prompt(agent.sideA.prompt)?.requiredSchema : undefined;
  if (schema) {
    const r = (schema as { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }).safeParse(args);
    if (!r.success) {
      const issues = (r.error?.issues ?? []).map((i) => `${i.path.map(String).join(".") || "(arguments)"}: ${i.message}`).join("; ");
      return { error: toolError(`Invalid arguments for ${entry.name}: ${issues}`, { error_code: "invalid_arguments" }) };
    }
  }
  const c = entry.config;
  return {
    agentName: entry.name,
    toolName: entry.name,
    blocking: c.blocking,
    resumable: false,
    message: c.initUserMessageProperty ? str(args[c.initUserMessageProperty]) : JSON.stringify(args),
    messageRole: "user",
    attachments: c.initAttachmentsProperty ? paths(args[c.initAttachmentsProperty]) : [],
    threadName: c.initAgentNameProperty ? str(args[c.initAgentNameProperty]) || null : null,
  };
}

/** `subagent_create` and `subagent_message` (design.md §4 schemas); every problem is a tool error the model can fix. */
export async function invokeLifecycle(tc: ToolCallContext, tool: Extract<OfferedTool, { kind: "lifecycle" }>, callId: string, args: Record<string, unknown>): Promise<SubagentOutcome> {
  const children = await tc.deps.persistence.subagents.listByParent(tc.thread.id);
  if (tool.name === "subagent_create") {
    const entry = tool.resumables.find((r) => r.name === args.agent);
    if (!entry) return { result: toolError(`subagent_create: agent must be one of ${tool.resumables.map((r) => r.name).join(", ")}.`) };
    const name = typeof args.name === "string" ? args.name.trim() : "";
    if (!name) return { result: toolError("subagent_create: `name` is required: give this instance a short, unique name.") };
    if (typeof args.message !== "string") return { result: toolError("subagent_create: `message` is required (the task for the new instance).") };
    const max = entry.config.resumable ? entry.config.resumable.maxInstances : undefined;
    const live = children.filter((c) => c.name === entry.name && c.status !== "terminated");
    // A re-run of this very call (restart, re-activation while it blocks) finds its child: that one is not "another".
    const own = children.some((c) => c.toolCallId === callId);
    if (max !== undefined && !own && live.length >= max) {
      return {
        result: toolError(
          `Cannot create another ${entry.name}: the limit of ${max} live instance${max === 1 ? "" : "s"} is reached. ` +
            `Use subagent_message with the reference of an existing instance instead: ${live.map((c) => `${c.childId} (${c.threadName ?? c.name})`).join(", ")}.`,
          { error_code: "max_instances" },
        ),
      };
    }
    const extra = args.arguments && typeof args.arguments === "object" ? `\n\nArguments: ${JSON.stringify(args.arguments)}` : "";
    return spawnAndAnswer(
      tc,
      callId,
      {
        agentName: entry.name,
        toolName: "subagent_create",
        blocking: entry.config.blocking,
        resumable: entry.config.resumable,
        message: `${args.message}${extra}`,
        messageRole: roleFor(entry),
        attachments: paths(args.attachments),
        threadName: name,
      },
      args,
    );
  }
  const ref = typeof args.referenceId === "string" ? args.referenceId.trim() : "";
  const child = children.find((c) => c.childId === ref);
  const addressable = children.filter((c) => c.resumable && c.status !== "terminated").map((c) => `${c.childId} (${c.threadName ?? c.name})`);
  const liveList = addressable.length ? ` Live instances: ${addressable.join(", ")}.` : "";
  if (!child) return { result: toolError(`subagent_message: unknown reference ${JSON.stringify(ref)}.${liveList}`) };
  if (!child.resumable) {
    // Spec §7.7: only resumable instances are addressable; a non-resumable subagent is a one-off call.
    return { result: toolError(`subagent_message: subagent ${child.childId} (${child.name}) is not resumable and cannot receive messages.${liveList}`, { error_code: "not_resumable" }) };
  }
  const thread = await tc.deps.persistence.threads.get(child.childId);
  if (!thread || thread.status === "terminated" || child.status === "terminated") return { result: terminatedError(child.childId) };
  if (typeof args.message !== "string" || !args.message.trim()) return { result: toolError("subagent_message: `message` is required.") };
  const entry = tool.resumables.find((r) => r.name === child.name);
  const blocking = entry?.config.blocking ?? child.blocking;
  const answer = (): SubagentOutcome => (blocking ? { deferred: true } : { result: { status: "success", result: `Message sent to subagent ${child.childId}.` } });
  // A re-run of this call (restart, re-activation while it blocks) must not send the message twice.
  if (await sentFor(tc.deps.persistence, child.childId, callId)) return answer();
  let attachments;
  try {
    attachments = await copyToChild(tc, child.childId, paths(args.attachments));
  } catch (err) {
    return { result: toolError(err instanceof Error ? err.message : String(err)) };
  }
  const input = { role: entry ? roleFor(entry) : "user", content: args.message, attachments };
  const sent = await sendOnce(tc, child, callId, blocking, input);
  return sent ? answer() : { result: terminatedError(child.childId) };
}

const terminatedError = (childId: string) =>
  toolError(`subagent_message: subagent ${childId} is terminated and cannot receive messages; create a new instance with subagent_create.`);

/** Whether the parent call `callId` already queued its message to the child (pending or delivered). */
async function sentFor(stores: Stores, childId: string, callId: string): Promise<boolean> {
  const mine = (m: Record<string, unknown> | null) => m?.parent_tool_call_id === callId;
  if ((await stores.queue.pending(childId)).some((q) => mine(q.metadata))) return true;
  return (await stores.messages.list(childId, { includeSilent: true })).some((m) => m.side === null && mine(m.metadata));
}

/**
 * Queue the parent's message on the child at most once per parent tool call, in one transaction with the registry
 * update (a blocking call waits for the child's next report). False when the child is terminated.
 */
async function sendOnce(
  tc: ToolCallContext,
  child: SubagentRecord,
  callId: string,
  blocking: boolean,
  input: { role: "user" | "assistant"; content: string; attachments: AttachmentRecord[] },
): Promise<boolean> {
  const sent = await tc.deps.events.commit(async (tx, emit) => {
    const thread = await tx.threads.get(child.childId);
    if (!thread || thread.status === "terminated") return false;
    if (await sentFor(tx, child.childId, callId)) return true;
    const q = await tx.queue.enqueue(child.childId, { ...input, silent: false, metadata: { from_parent: tc.thread.id, parent_tool_call_id: callId } });
    await emit(child.childId, { type: "queue.enqueued", queueId: q.id, role: q.role });
    if (thread.status !== "running") {
      await tx.threads.update(child.childId, { status: "running" });
      await emit(child.childId, { type: "thread.status", status: "running", stopReason: thread.stopReason });
    }
    await tx.subagents.update(child.childId, blocking ? { status: "running", toolCallId: callId, blocking: true } : { status: "running" });
    await emit(tc.thread.id, { type: "subagent.updated", childId: child.childId, name: child.name, status: "running", change: "messaged" });
    return true;
  });
  if (sent) await tc.deps.schedule(child.childId);
  return sent;
}

/** Copy parent files into the child's /attachments/ (destination-local paths). */
async function copyToChild(tc: ToolCallContext, childId: string, list: string[]) {
  const files = tc.deps.persistence.files;
  const out: string[] = [];
  for (const raw of list) {
    const [rec] = await resolveAttachments(files, tc.thread.id, [raw]);
    const data = rec ? await files.read(tc.thread.id, rec.path) : null;
    if (!rec || !data) throw new ValidationError(`Attachment ${raw} does not exist in this thread's files`);
    const to = await freePath(files, childId, `/attachments/${rec.name ?? "file"}`);
    await files.write(childId, to, data, { mimeType: rec.mimeType ?? null, sourceThreadId: tc.thread.id, sourcePath: rec.path });
    out.push(to);
  }
  return resolveAttachments(files, childId, out);
}
