import { ValidationError } from "../errors";
import { createMessage } from "../kernel/message-writer";
import { bareScope } from "../kernel/scope";
import type { EnvValueRecord, MessageRole, Stores, ThreadDraft, ThreadRecord } from "../ports";
import type { Emit } from "../events/publisher";
import type { RuntimeDeps } from "../kernel/deps";
import { initialThreadState } from "../kernel/initial-state";
import { startTurn } from "../kernel/turns";
import { immediateEntries } from "../subagents/immediate";
import { depsForThread } from "../kernel/thread-definitions";

export interface CreateThreadInput {
  agentId: string;
  env?: Record<string, string>;
  envTypes?: Record<string, "text" | "secret">;
  tags?: string[];
  initialMessages?: { role: MessageRole; content: string | null; silent?: boolean; metadata?: Record<string, unknown> }[];
  userId?: string | null;
  parentId?: string | null;
  name?: string | null;
  /** Run an unsaved editor draft's definitions instead of the saved ones (the thread and the children it spawns). */
  draft?: ThreadDraft;
}

/**
 * Create a thread (design.md §5): the agent must exist and every variable its graph requires must have a value
 * (from `env`, the user's or the instance's values). Env values are stored (secrets encrypted), then initial
 * messages (through the message writer: create hooks, secret masking); when the last initial message calls for an
 * answer (`user` → side A, `assistant` → side B of a dual_ai agent) the thread starts running.
 */
export async function createThread(rootDeps: RuntimeDeps, input: CreateThreadInput): Promise<ThreadRecord> {
  const draftState = input.draft ? { draft: input.draft } : {};
  const deps = depsForThread(rootDeps, { id: "(new)", state: { ...initialThreadState(), ...draftState } });
  const defs = deps.definitions();
  const agent = defs.agent(input.agentId);
  if (!agent) {
    const known = defs.agentNames();
    throw new ValidationError(`agent_id: unknown agent "${input.agentId}"${known.length ? `; known agents: ${known.join(", ")}` : ""}`, [
      { path: "agent_id", message: `unknown agent "${input.agentId}"` },
    ]);
  }
  const env = input.env ?? {};
  // An empty or blank value does not satisfy a required variable.
  const provided = new Set(Object.keys(env).filter((k) => hasText(env[k])));
  const required = defs.requiredAtCreation(agent.name);
  // The user's and the instance's values are read (and decrypted) only for an agent that requires some.
  if (required.some((v) => !provided.has(v.name))) {
    const userValues = input.userId ? await deps.persistence.env.list("user", input.userId) : [];
    const instanceValues = await deps.persistence.env.list("instance", "instance");
    for (const r of [...userValues, ...instanceValues]) if (hasText(storedValue(deps, r))) provided.add(r.name);
  }
  const missing = required.filter((v) => !provided.has(v.name));
  if (missing.length > 0) {
    const blank = (name: string) => env[name] !== undefined;
    throw new ValidationError(`Missing required variables for agent "${agent.name}": ${missing.map((v) => v.name).join(", ")}`, {
      missing: missing.map((v) => v.name),
      fields: missing.map((v) => ({
        path: `env.${v.name}`,
        message: `${blank(v.name) ? "required (an empty or blank value does not count)" : "required"}${v.description ? `: ${v.description}` : ""}`,
      })),
    });
  }
  const declared = new Map(defs.graphVariables(agent.name).map((v) => [v.name, v.type]));
  const secretNames = Object.keys(env).filter((k) => (input.envTypes?.[k] ?? declared.get(k)) === "secret");
  if (secretNames.length > 0 && !deps.secrets) throw new ValidationError("Secret values cannot be stored: no secrets key is configured");

  const initialMessages = input.initialMessages ?? [];
  const created = await deps.events.commit(async (tx, emit) => {
    const thread = await tx.threads.create({
      agentId: agent.name,
      parentId: input.parentId ?? null,
      userId: input.userId ?? null,
      tags: input.tags ?? [],
      name: input.name ?? null,
      state: { ...initialThreadState(), ...draftState },
      status: "idle",
    });
    for (const [name, value] of Object.entries(env)) {
      const secret = secretNames.includes(name);
      await tx.env.set("thread", thread.id, name, secret ? "secret" : "text", secret ? deps.secrets!.encrypt(value) : value);
    }
    // Without initial messages nothing comes between the row and its status: both in this one transaction.
    return initialMessages.length === 0 ? settleStatus(tx, emit, thread, null) : thread;
  });
  if (initialMessages.length === 0) return created;
  // Initial messages are stored like every message: create hooks run (side A's prompt), secrets are masked.
  let last: { role: MessageRole; seq: number } | null = null;
  for (const m of initialMessages) {
    const msg = await createMessage(bareScope(deps, created, "a"), {
      role: m.role,
      content: m.content,
      name: null,
      toolCalls: null,
      toolCallId: null,
      toolStatus: null,
      reasoningContent: null,
      attachments: null,
      silent: m.silent ?? false,
      depth: 0,
      side: null,
      metadata: m.metadata ?? null,
      subagentId: typeof m.metadata?.subagent_id === "string" ? m.metadata.subagent_id : null,
    });
    if (m.role === "user" || m.role === "assistant") last = { role: m.role, seq: msg.seq };
  }
  const lastMessage = last;
  return deps.events.commit(async (tx, emit) => settleStatus(tx, emit, (await tx.threads.get(created.id)) ?? created, lastMessage));

  /** The new thread's status (running when its last initial message calls for an answer, or immediate subagents start). */
  async function settleStatus(tx: Stores, emit: Emit, thread: ThreadRecord, lastMsg: { role: MessageRole; seq: number } | null): Promise<ThreadRecord> {
    const side = lastMsg?.role === "user" ? "a" : lastMsg?.role === "assistant" && agent!.type === "dual_ai" ? "b" : null;
    if (side && lastMsg) {
      thread = await tx.threads.update(thread.id, { status: "running", state: startTurn(thread.state, side, lastMsg.seq) });
    } else if (immediateEntries(defs, agent!.sideA.prompt).length > 0) {
      // Immediate subagents start at thread creation, before any model step.
      thread = await tx.threads.update(thread.id, { status: "running" });
    }
    await emit(thread.id, { type: "thread.status", status: thread.status, stopReason: null });
    return thread;
  }
}

const hasText = (v: string | undefined): boolean => typeof v === "string" && v.trim() !== "";

/** A stored user/instance value in plain text (secrets decrypted; an unreadable secret counts as present). */
function storedValue(deps: RuntimeDeps, r: EnvValueRecord): string {
  if (r.type !== "secret") return r.value;
  if (!deps.secrets) return r.value;
  try {
    return deps.secrets.decrypt(r.value);
  } catch {
    return r.value;
  }
}
