import type { ResolvedResumableConfig } from "@/server/registry";
import { ValidationError } from "../errors";
import { freePath } from "../files/attachments";
import { baseName, normalizePath } from "../files/paths";
import { nowMicros } from "../ids";
import type { Emit } from "../events/publisher";
import type { AttachmentRecord, EnvValueRecord, Stores, SubagentRecord, ThreadRecord } from "../ports";
import type { RuntimeDeps } from "../kernel/deps";
import { initialThreadState } from "../kernel/initial-state";
import { traceParentFor } from "../tracing";

export interface SpawnRequest {
  parent: ThreadRecord;
  agentName: string;
  /** The parent tool that spawns it: the agent's own name, or `subagent_create`. */
  toolName: string;
  toolCallId: string | null;
  spawnGroupId: string | null;
  blocking: boolean;
  resumable: false | ResolvedResumableConfig;
  /** First message for the child, or null (an immediate child with nothing to say yet). */
  message: string | null;
  messageRole: "user" | "assistant";
  /** Paths in the parent's filesystem, copied into the child's before the message is queued. */
  attachments: string[];
  threadName: string | null;
  /** Values for the child's scoped variables (immediate `scopedEnv`, or a bootstrap POST). */
  scopedEnv?: Record<string, string>;
  /** The child's id, when the caller needs it before the spawn (a new one otherwise). */
  childId?: string;
}

export type SpawnResult =
  | { ok: true; child: ThreadRecord; entry: SubagentRecord; existed: boolean }
  | { ok: false; required: string[]; missing: string[] };

/** What a spawn reads before its transaction: the agent, the inherited env, the attachment bytes. */
export interface PreparedSpawn {
  agent: NonNullable<ReturnType<ReturnType<RuntimeDeps["definitions"]>["agent"]>>;
  parentEnv: EnvValueRecord[];
  files: { from: string; data: Uint8Array; mimeType: string | null }[];
  given: Record<string, string>;
  declared: Map<string, "text" | "secret">;
}

/**
 * Spawn an isolated child thread (own messages, files, queue, logs, env) linked to its parent (spec §7). Idempotent per
 * parent tool call, so re-running an interrupted step after a restart never spawns twice. The child inherits the
 * parent's thread env except variables its graph declares `scoped`; required scoped variables must be given. The
 * child's activation is queued in the same transaction that creates it.
 */
export async function spawnChild(deps: RuntimeDeps, req: SpawnRequest): Promise<SpawnResult> {
  const p = deps.persistence;
  if (req.toolCallId) {
    const existing = await p.subagents.byToolCall(req.parent.id, req.toolCallId);
    if (existing) {
      const child = await p.threads.get(existing.childId);
      if (child) return { ok: true, child, entry: existing, existed: true };
    }
  }
  const prepared = await prepareSpawn(deps, req);
  if (!prepared.ok) return prepared;
  const result = await deps.events.commit((tx, emit) => createChildTx(deps, tx, emit, req, prepared.spawn));
  deps.wake();
  return { ok: true, ...result, existed: false };
}

/**
 * The reads of a spawn, outside any transaction: the agent (a ValidationError when it is not defined), the scoped
 * variables it still needs (`ok: false`), the parent's inherited env and the attachment bytes.
 */
export async function prepareSpawn(
  deps: RuntimeDeps,
  req: SpawnRequest,
): Promise<{ ok: true; spawn: PreparedSpawn } | { ok: false; required: string[]; missing: string[] }> {
  const p = deps.persistence;
  const defs = deps.definitions();
  const agent = defs.agent(req.agentName);
  if (!agent) throw new ValidationError(`Subagent ${req.agentName} is not defined`);
  const variables = defs.graphVariables(agent.name);
  const scopedNames = new Set(variables.filter((v) => v.scoped).map((v) => v.name));
  const requiredScoped = defs.requiredScopedAtSpawn(agent.name);
  const given = req.scopedEnv ?? {};
  const missing = requiredScoped.filter((n) => !(n in given));
  if (missing.length > 0) return { ok: false, required: requiredScoped, missing };

  // Read everything outside the transaction: inherited env and the attachment bytes.
  const parentEnv = (await p.env.list("thread", req.parent.id)).filter((r) => !scopedNames.has(r.name));
  const files: PreparedSpawn["files"] = [];
  for (const raw of req.attachments) {
    const from = normalizePath(raw);
    const st = await p.files.stat(req.parent.id, from);
    const data = st && !st.isDirectory ? await p.files.read(req.parent.id, from) : null;
    if (!st || !data) throw new ValidationError(`Attachment ${from} does not exist in the parent thread's files`);
    files.push({ from, data, mimeType: st.mimeType });
  }
  const declared = new Map(variables.map((v) => [v.name, v.type]));
  return { ok: true, spawn: { agent, parentEnv, files, given, declared } };
}

/**
 * In the caller's transaction: the child thread, its env, files, registry entry and first message, its
 * `thread.status` and the parent's `subagent.updated`, and its activation's work item (the caller wakes the
 * scheduler once it committed).
 */
export async function createChildTx(
  deps: RuntimeDeps,
  tx: Stores,
  emit: Emit,
  req: SpawnRequest,
  { agent, parentEnv, files, given, declared }: PreparedSpawn,
): Promise<{ child: ThreadRecord; entry: SubagentRecord }> {
  const tags = req.threadName ? [`name:${req.threadName}`] : [];
  const child = await tx.threads.create({
    ...(req.childId ? { id: req.childId } : {}),
    agentId: agent.name,
    parentId: req.parent.id,
    userId: req.parent.userId,
    tags,
    name: req.threadName,
    // A child of a draft thread runs the same draft.
    state: withTraceParent(
      req.parent.state.draft ? { ...initialThreadState(), draft: req.parent.state.draft } : initialThreadState(),
      traceParentFor(req.parent.id, req.toolCallId),
    ),
    status: "running",
  });
  for (const r of parentEnv) await tx.env.set("thread", child.id, r.name, r.type, r.value);
  for (const [name, value] of Object.entries(given)) {
    const secret = declared.get(name) === "secret";
    if (secret && !deps.secrets) throw new ValidationError(`Cannot store secret ${name}: no secrets key is configured`);
    await tx.env.set("thread", child.id, name, secret ? "secret" : "text", secret ? deps.secrets!.encrypt(value) : value);
  }
  const attachments: AttachmentRecord[] = [];
  for (const f of files) {
    const to = await freePath(tx.files, child.id, `/attachments/${baseName(f.from)}`);
    await tx.files.write(child.id, to, f.data, { mimeType: f.mimeType, sourceThreadId: req.parent.id, sourcePath: f.from });
    attachments.push({ path: to, name: baseName(to), mimeType: f.mimeType ?? undefined, size: f.data.byteLength });
  }
  const entry = await tx.subagents.create({
    parentId: req.parent.id,
    childId: child.id,
    name: agent.name,
    title: agent.title ?? null,
    description: agent.toolDescription ?? agent.description ?? "",
    resumable: req.resumable !== false,
    blocking: req.blocking,
    threadName: req.threadName,
    spawnGroupId: req.spawnGroupId,
    status: "running",
    parentCommunication: req.resumable ? req.resumable.parentCommunication : "implicit",
    toolName: req.toolName,
    toolCallId: req.toolCallId,
    createdAt: nowMicros(),
  });
  if (req.message !== null || attachments.length > 0) {
    await tx.queue.enqueue(child.id, {
      role: req.messageRole,
      content: req.message ?? "",
      attachments,
      silent: false,
      metadata: { from_parent: req.parent.id },
    });
  }
  await tx.work.enqueue({ kind: "run", threadId: child.id, dedupeKey: `run:${child.id}` });
  await emit(child.id, { type: "thread.status", status: "running", stopReason: null });
  await emit(req.parent.id, { type: "subagent.updated", childId: child.id, name: agent.name, status: "running", change: "spawned" });
  return { child, entry };
}

/** The child's state with the spawning call's `traceparent` when tracing is on (left out otherwise). */
function withTraceParent(state: ThreadRecord["state"], traceParent: string | null): ThreadRecord["state"] {
  return traceParent ? { ...state, traceParent } : state;
}
