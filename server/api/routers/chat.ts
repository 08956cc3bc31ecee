import { tracked } from "@trpc/server";
import { z } from "zod";
import { toThreadRecord } from "@/server/db/repositories/threads";
import type { RegistrySnapshot } from "@/server/registry";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { toSpecMessage } from "@/server/runtime/kernel/to-spec";
import type { EventBus, MessageRecord, ThreadRecord } from "@/server/runtime/ports";
import type { App } from "@/server/worker/app";
import { ownerFilter, visibleThreadIds } from "../auth/access";
import type { Caller } from "../auth/guard";
import { threadEventFeed } from "../threads/event-feed";
import { threadView } from "../threads/views";
import { publicProcedure, router } from "../trpc";

/**
 * What the chat UI needs beyond the `threads` router: a consistent conversation snapshot to resume events from, an
 * event stream that also restores the reply being streamed, the thread list with previews and nesting, live list
 * activity, and usage over a thread's subtree.
 */

const MAX_MESSAGES = 10_000;
/** Messages in a conversation's first paint; older ones page in as the reader scrolls up. */
const INITIAL_MESSAGES = 300;
const threadId = z.object({ threadId: z.string().min(1) });

// ─── The reply being streamed, per thread ──────────────────────────────────────────────────────────────────────────

interface Inflight {
  stepId: string;
  side: "a" | "b";
  content: string;
  reasoning: string;
  /** The last persisted event seq this partial follows. */
  seq: number;
}

/**
 * Token deltas are live only; to show a reply that is half streamed when a client (re)connects, the API keeps the
 * text of each thread's step in progress and drops it once the step's message is stored or the thread stops.
 */
class InflightTracker {
  private readonly steps = new Map<string, Inflight>();
  constructor(bus: EventBus) {
    bus.subscribeAll((env) => this.apply(env));
  }
  get(threadId: string): Inflight | undefined {
    const s = this.steps.get(threadId);
    return s ? { ...s } : undefined;
  }
  private apply(env: ThreadEventEnvelope): void {
    const e = env.event;
    const cur = this.steps.get(env.threadId);
    if (e.type === "step.started") {
      this.steps.set(env.threadId, { stepId: e.stepId, side: e.side, content: "", reasoning: "", seq: env.seq });
    } else if (e.type === "token.delta") {
      const s =
        cur && cur.stepId === e.stepId
          ? cur
          : { stepId: e.stepId, side: e.side, content: "", reasoning: "", seq: env.seq };
      s.content += e.content ?? "";
      s.reasoning += e.reasoning ?? "";
      s.seq = Math.max(s.seq, env.seq);
      this.steps.set(env.threadId, s);
    } else if (
      e.type === "step.completed" ||
      e.type === "thread.stopped" ||
      (e.type === "thread.status" && e.status !== "running") ||
      (e.type === "message.created" && isModelMessage(e.message))
    ) {
      this.steps.delete(env.threadId);
    }
  }
}

const isModelMessage = (m: Record<string, unknown>) =>
  m.role !== "tool" && typeof (m.metadata as { model?: unknown } | null | undefined)?.model === "string";

const trackers = new WeakMap<EventBus, InflightTracker>();
function inflight(bus: EventBus): InflightTracker {
  let t = trackers.get(bus);
  if (!t) trackers.set(bus, (t = new InflightTracker(bus)));
  return t;
}

// ─── Helpers ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** Every tool name the registry knows, with its kind (a name resolves the same way in every prompt). */
function toolKinds(snap: RegistrySnapshot): Record<string, string> {
  const kinds: Record<string, string> = { subagent_create: "subagent", subagent_message: "subagent" };
  for (const p of snap.prompts.values()) for (const t of p.tools) kinds[t.name] = t.kind;
  return kinds;
}

/** Ids of a thread and all its descendants (breadth first). */
async function subtreeIds(app: App, rootId: string, max = 2_000): Promise<string[]> {
  const ids = [rootId];
  let frontier = [rootId];
  while (frontier.length > 0 && ids.length < max) {
    const rows = await app.prisma.thread.findMany({ where: { parentId: { in: frontier } }, select: { id: true } });
    frontier = rows.map((r) => r.id);
    ids.push(...frontier);
  }
  return ids.slice(0, max);
}

/** The last visible user or assistant text of each thread. */
async function previews(app: App, ids: string[]): Promise<Map<string, { role: string; text: string; at: number }>> {
  const out = new Map<string, { role: string; text: string; at: number }>();
  if (ids.length === 0) return out;
  const where = {
    threadId: { in: ids },
    silent: false,
    role: { in: ["user", "assistant"] },
    content: { not: null },
    NOT: { content: "" },
  };
  const last = await app.prisma.message.groupBy({ by: ["threadId"], where, _max: { seq: true } });
  const keys = last.filter((l) => l._max.seq !== null).map((l) => ({ threadId: l.threadId, seq: l._max.seq! }));
  if (keys.length === 0) return out;
  // Chunks keep the OR expression well under SQLite's expression depth limit.
  for (let i = 0; i < keys.length; i += 200) {
    const rows = await app.prisma.message.findMany({
      where: { OR: keys.slice(i, i + 200) },
      select: { threadId: true, role: true, content: true, createdAt: true },
    });
    for (const r of rows)
      out.set(r.threadId, { role: r.role, text: (r.content ?? "").slice(0, 240), at: Number(r.createdAt) });
  }
  return out;
}

const listInput = z.object({
  search: z.string().max(200).optional(),
  agentId: z.string().optional(),
  status: z.enum(["running", "idle", "terminated"]).optional(),
  limit: z.number().int().min(1).max(500).default(100),
});

type ListedThread = ReturnType<typeof threadView> & {
  preview: { role: string; text: string; at: number } | null;
  /** Shown only as the ancestor of a match (it does not match the filters itself). */
  context: boolean;
  children: number;
};

async function listThreads(app: App, input: z.output<typeof listInput>, caller: Caller) {
  const userId = ownerFilter(caller);
  const mine = userId ? { userId } : {};
  const filtered = Boolean(input.search?.trim() || input.agentId || input.status);
  let records: ThreadRecord[];
  let total: number;
  const context = new Set<string>();
  if (!filtered) {
    const where = { parentId: null, ...mine };
    const [roots, count] = await Promise.all([
      app.prisma.thread.findMany({ where, orderBy: [{ lastActivityAt: "desc" }, { id: "asc" }], take: input.limit }),
      app.prisma.thread.count({ where }),
    ]);
    records = roots.map(toThreadRecord);
    total = count;
    let frontier = records.map((r) => r.id);
    while (frontier.length > 0 && records.length < 5_000) {
      const kids = (
        await app.prisma.thread.findMany({ where: { parentId: { in: frontier } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })
      ).map(toThreadRecord);
      records.push(...kids);
      frontier = kids.map((k) => k.id);
    }
  } else {
    const res = await app.persistence.threads.list({
      agentId: input.agentId,
      status: input.status,
      search: input.search,
      userId,
      limit: input.limit,
    });
    records = res.threads;
    total = res.total;
    // Ancestors of matches give them their place in the tree.
    const have = new Set(records.map((r) => r.id));
    let missing = [...new Set(records.map((r) => r.parentId).filter((p): p is string => !!p && !have.has(p)))];
    while (missing.length > 0) {
      const parents = (await app.prisma.thread.findMany({ where: { id: { in: missing } } })).map(toThreadRecord);
      for (const p of parents) {
        have.add(p.id);
        context.add(p.id);
        records.push(p);
      }
      missing = [...new Set(parents.map((p) => p.parentId).filter((p): p is string => !!p && !have.has(p)))];
    }
  }
  const ids = records.map((r) => r.id);
  const [prev, childCounts, running] = await Promise.all([
    previews(app, ids),
    app.prisma.thread.groupBy({ by: ["parentId"], where: { parentId: { in: ids } }, _count: { _all: true } }),
    app.prisma.thread.count({ where: { status: "running", ...mine } }),
  ]);
  const kids = new Map(childCounts.map((c) => [c.parentId ?? "", c._count._all]));
  const threads: ListedThread[] = records.map((r) => ({
    ...threadView(r),
    preview: prev.get(r.id) ?? null,
    context: context.has(r.id),
    children: kids.get(r.id) ?? 0,
  }));
  return { threads, total, running, filtered };
}

/** A stored message in the spec's shape, plus its order (`seq`) and authoring side. */
const chatMessage = (m: MessageRecord) => ({ ...toSpecMessage(m), seq: m.seq, side: m.side });

function eventPayload(env: ThreadEventEnvelope) {
  return { seq: env.seq, persisted: env.persisted, at: env.at, ...env.event };
}

// ─── Router ───────────────────────────────────────────────────────────────────────────────────────────────────────

export const chatRouter = router({
  /**
   * A consistent starting point for a conversation: the event seq first, then the thread and its messages (silent
   * ones included), so replaying events after `lastEventSeq` converges whatever happened in between. `toolKinds`
   * gives the kind (tool, subprompt, handoff, subagent) of every tool name, to render each call as what it is.
   */
  snapshot: publicProcedure
    .input(threadId.extend({ limit: z.number().int().min(1).max(MAX_MESSAGES).default(INITIAL_MESSAGES) }))
    .query(async ({ ctx, input }) => {
      const { app } = ctx;
      inflight(app.bus);
      const lastEventSeq = await app.persistence.events.lastSeq(input.threadId);
      const thread = await app.runtime.getThread(input.threadId);
      const [env, total, rows, toolEvents, lastStop] = await Promise.all([
        app.persistence.env.list("thread", thread.id),
        app.persistence.messages.count(thread.id, { includeSilent: true }),
        app.persistence.messages.list(thread.id, { includeSilent: true, order: "desc", limit: input.limit }),
        app.prisma.threadEvent.findMany({
          where: { threadId: thread.id, type: "tool.completed" },
          select: { data: true },
          orderBy: { seq: "desc" },
          take: MAX_MESSAGES,
        }),
        app.prisma.threadEvent.findFirst({
          where: { threadId: thread.id, type: "thread.stopped" },
          select: { data: true },
          orderBy: { seq: "desc" },
        }),
      ]);
      const toolRuns: Record<string, { durationMs: number; status: string }> = {};
      for (const e of toolEvents) {
        const d = e.data as { toolCallId?: string; durationMs?: number; status?: string };
        if (d.toolCallId) toolRuns[d.toolCallId] = { durationMs: d.durationMs ?? 0, status: d.status ?? "success" };
      }
      const stop = lastStop?.data as { reason?: string; detail?: string; scope?: string; side?: string } | undefined;
      return {
        thread: threadView(thread, env),
        toolKinds: toolKinds(app.registry.current()),
        lastEventSeq,
        messages: rows.reverse().map(chatMessage),
        /** Older messages exist: `chat.older` pages them in. */
        hasOlder: total > rows.length,
        total,
        toolRuns,
        lastStop: stop?.reason
          ? { reason: stop.reason, detail: stop.detail ?? null, scope: stop.scope ?? null, side: stop.side ?? null }
          : null,
      };
    }),

  /** Messages before `beforeSeq` (silent ones included), oldest first: the page just above what the client has. */
  older: publicProcedure
    .input(
      threadId.extend({
        beforeSeq: z.number().int().min(1),
        limit: z.number().int().min(1).max(MAX_MESSAGES).default(2_000),
      }),
    )
    .query(async ({ ctx, input }) => {
      await ctx.app.runtime.getThread(input.threadId);
      const rows = await ctx.app.persistence.messages.list(input.threadId, {
        includeSilent: true,
        beforeSeq: input.beforeSeq,
        order: "desc",
        limit: input.limit + 1,
      });
      const hasOlder = rows.length > input.limit;
      return { messages: rows.slice(0, input.limit).reverse().map(chatMessage), hasOlder };
    }),

  /**
   * The thread's events after `lastEventId` (tracked: reconnects resume), plus a `token.snapshot` with the text of
   * the step being streamed, placed right after the last persisted event it follows.
   */
  events: publicProcedure.input(threadId.extend({ lastEventId: z.string().nullish() })).subscription(async function* ({
    ctx,
    input,
    signal,
  }) {
    await ctx.app.runtime.getThread(input.threadId);
    const after = Number.parseInt(input.lastEventId ?? "0", 10) || 0;
    const abort = new AbortController();
    signal?.addEventListener("abort", () => abort.abort());
    const tracker = inflight(ctx.app.bus);
    const feed = threadEventFeed(
      { bus: ctx.app.bus, events: ctx.app.persistence.events },
      input.threadId,
      after,
      abort.signal,
    );
    // The first next() subscribes the feed to the bus synchronously; the partial taken in the same tick is exact.
    let step = feed.next();
    let partial = tracker.get(input.threadId) ?? null;
    const snapshotEvent = (p: Inflight) => ({
      type: "token.snapshot" as const,
      stepId: p.stepId,
      side: p.side,
      content: p.content,
      reasoning: p.reasoning,
      seq: p.seq,
      persisted: false,
    });
    if (partial && partial.seq <= after) {
      yield snapshotEvent(partial);
      partial = null;
    }
    try {
      for (;;) {
        const r = await step;
        if (r.done) break;
        const env = r.value;
        if (env.persisted) yield tracked(String(env.seq), eventPayload(env));
        else yield eventPayload(env);
        if (partial && env.persisted && env.seq >= partial.seq) {
          yield snapshotEvent(partial);
          partial = null;
        }
        step = feed.next();
      }
    } finally {
      abort.abort();
      await feed.return(undefined);
    }
  }),

  /** Threads for the list: roots with their descendants, or matches with their ancestors; last message previews. */
  threadList: publicProcedure.input(listInput).query(({ ctx, input }) => listThreads(ctx.app, input, ctx.caller)),

  /** Direct children of a thread (child-agent cards show their live status). */
  children: publicProcedure.input(threadId).query(async ({ ctx, input }) => {
    const rows = await ctx.app.prisma.thread.findMany({
      where: { parentId: input.threadId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: 1_000,
    });
    return rows.map((r) => threadView(toThreadRecord(r)));
  }),

  /** Statuses of given threads (child cards that link to threads found in message text). */
  statuses: publicProcedure.input(z.object({ ids: z.array(z.string()).max(500) })).query(async ({ ctx, input }) => {
    const visible = await visibleThreadIds(ctx.app, ctx.caller, input.ids);
    const rows = await ctx.app.prisma.thread.findMany({
      where: { id: { in: [...visible] } },
      select: { id: true, status: true, agentId: true, name: true, stopReason: true },
    });
    return rows.map((r) => ({
      id: r.id,
      status: r.status,
      agent_id: r.agentId,
      name: r.name,
      stop_reason: r.stopReason,
    }));
  }),

  /** Tokens and cost from the request logs: the thread, its subtree, and a breakdown per thread and per model. */
  usage: publicProcedure.input(threadId).query(async ({ ctx, input }) => {
    const { app } = ctx;
    const thread = await app.runtime.getThread(input.threadId);
    const ids = await subtreeIds(app, thread.id);
    const sum = { inputTokens: true, outputTokens: true, cachedTokens: true, cost: true } as const;
    const [own, subtree, perThread, perModel, threads] = await Promise.all([
      app.persistence.llmLogs.totals([thread.id]),
      app.persistence.llmLogs.totals(ids),
      app.prisma.llmRequestLog.groupBy({
        by: ["threadId"],
        where: { threadId: { in: ids } },
        _sum: sum,
        _count: { _all: true },
      }),
      app.prisma.llmRequestLog.groupBy({
        by: ["modelName"],
        where: { threadId: { in: ids } },
        _sum: sum,
        _count: { _all: true },
      }),
      app.prisma.thread.findMany({
        where: { id: { in: ids } },
        select: { id: true, agentId: true, name: true, parentId: true },
      }),
    ]);
    const info = new Map(threads.map((t) => [t.id, t]));
    const row = (
      s: { inputTokens: number | null; outputTokens: number | null; cachedTokens: number | null; cost: number | null },
      n: number,
    ) => ({
      inputTokens: s.inputTokens ?? 0,
      outputTokens: s.outputTokens ?? 0,
      cachedTokens: s.cachedTokens ?? 0,
      cost: s.cost ?? 0,
      requests: n,
    });
    return {
      own,
      subtree: { ...subtree, threads: ids.length },
      threads: perThread
        .map((p) => ({
          id: p.threadId,
          agent_id: info.get(p.threadId)?.agentId ?? "",
          name: info.get(p.threadId)?.name ?? null,
          ...row(p._sum, p._count._all),
        }))
        .sort((a, b) => (a.id === thread.id ? -1 : b.id === thread.id ? 1 : b.cost - a.cost)),
      models: perModel
        .map((m) => ({ model: m.modelName, ...row(m._sum, m._count._all) }))
        .sort((a, b) => b.cost - a.cost),
    };
  }),

  /** Ids of threads with new activity (status, messages, handoffs), batched every 300 ms: the list refreshes live. */
  activity: publicProcedure.subscription(async function* ({ ctx, signal }) {
    const changed = new Set<string>();
    let wake: (() => void) | null = null;
    const unsubscribe = ctx.app.bus.subscribeAll((env) => {
      const t = env.event.type;
      if (t !== "thread.status" && t !== "message.created" && t !== "thread.handoff" && t !== "message.updated") return;
      changed.add(env.threadId);
      const w = wake;
      wake = null;
      w?.();
    });
    const onAbort = () => wake?.();
    signal?.addEventListener("abort", onAbort);
    try {
      while (!signal?.aborted) {
        if (changed.size === 0) await new Promise<void>((resolve) => (wake = resolve));
        if (signal?.aborted) break;
        await new Promise((r) => setTimeout(r, 300));
        const pending = [...changed];
        changed.clear();
        const ids = [...(await visibleThreadIds(ctx.app, ctx.caller, pending))];
        if (ids.length > 0) yield { threadIds: ids };
      }
    } finally {
      unsubscribe();
      signal?.removeEventListener("abort", onAbort);
    }
  }),
});
