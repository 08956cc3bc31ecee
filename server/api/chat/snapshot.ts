import { z } from "zod";
import { agentSummaries, type RegistrySnapshot } from "@/server/registry";
import { cachedDraftSnapshot } from "@/server/registry/writer";
import { toSpecMessage } from "@/server/runtime/kernel/to-spec";
import type { MessageRecord, ThreadRecord } from "@/server/runtime/ports";
import type { App } from "../app-context";
import { threadView } from "../threads/views";
import { inflight } from "./inflight-tracker";

const MAX_MESSAGES = 10_000;
/** Messages in a conversation's first paint; older ones page in as the reader scrolls up. */
const INITIAL_MESSAGES = 300;

export const snapshotInput = z.object({
  threadId: z.string().min(1),
  limit: z.number().int().min(1).max(MAX_MESSAGES).default(INITIAL_MESSAGES),
});

export const olderInput = z.object({
  threadId: z.string().min(1),
  beforeSeq: z.number().int().min(1),
  limit: z.number().int().min(1).max(MAX_MESSAGES).default(2_000),
});

/** A stored message in the spec's shape, plus its order (`seq`) and authoring side. */
const chatMessage = (m: MessageRecord) => ({ ...toSpecMessage(m), seq: m.seq, side: m.side });

/** Every tool name the registry knows, with its kind (a name resolves the same way in every prompt). */
function toolKinds(snap: RegistrySnapshot): Record<string, string> {
  const kinds: Record<string, string> = { subagent_create: "subagent", subagent_message: "subagent" };
  for (const p of snap.prompts.values()) for (const t of p.tools) kinds[t.name] = t.kind;
  return kinds;
}

/**
 * A consistent starting point for a conversation: the event seq first, then the thread and its messages (silent
 * ones included), so replaying events after `lastEventSeq` converges whatever happened in between. `toolKinds`
 * gives the kind (tool, subprompt, handoff, subagent) of every tool name, to render each call as what it is.
 */
export async function conversationSnapshot(app: App, input: z.output<typeof snapshotInput>) {
  inflight(app.bus);
  const lastEventSeq = await app.persistence.events.lastSeq(input.threadId);
  const thread = await app.runtime.getThread(input.threadId);
  const saved = app.registry.current();
  const snap = definitionsSnapshotOf(saved, thread);
  const [env, total, rows, toolRuns, lastStop] = await Promise.all([
    app.persistence.env.list("thread", thread.id),
    app.persistence.messages.count(thread.id, { includeSilent: true }),
    app.persistence.messages.list(thread.id, { includeSilent: true, order: "desc", limit: input.limit }),
    app.queries.chatSnapshot.toolRuns(thread.id),
    app.queries.chatSnapshot.lastStop(thread.id),
  ]);
  return {
    thread: threadView(thread, env),
    toolKinds: toolKinds(snap),
    /** A Try it thread's agents as its unsaved draft defines them (null: the saved registry's agents apply). */
    draftAgents: snap === saved ? null : agentSummaries(snap),
    lastEventSeq,
    messages: rows.reverse().map(chatMessage),
    /** Older messages exist: `chat.older` pages them in. */
    hasOlder: total > rows.length,
    total,
    toolRuns,
    lastStop,
  };
}

/** Messages before `beforeSeq` (silent ones included), oldest first: the page just above what the client has. */
export async function olderMessages(app: App, input: z.output<typeof olderInput>) {
  await app.runtime.getThread(input.threadId);
  const rows = await app.persistence.messages.list(input.threadId, {
    includeSilent: true,
    beforeSeq: input.beforeSeq,
    order: "desc",
    limit: input.limit + 1,
  });
  const hasOlder = rows.length > input.limit;
  return { messages: rows.slice(0, input.limit).reverse().map(chatMessage), hasOlder };
}

/** The definitions a thread runs: its unsaved draft's (a Try it thread) when it still builds, else the saved ones. */
function definitionsSnapshotOf(saved: RegistrySnapshot, thread: ThreadRecord): RegistrySnapshot {
  if (!thread.state.draft) return saved;
  try {
    return cachedDraftSnapshot(saved, thread.state.draft);
  } catch {
    return saved;
  }
}
