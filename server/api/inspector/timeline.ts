import { redactDeep, secretValues } from "@/server/runtime/env/redact";
import { NotFoundError } from "@/server/runtime/errors";
import type { App } from "../app-context";

const MAX_ITEMS = 3_000;
/** The endpoint the OpenAI-compatible client uses when neither the model nor OPENAI_BASE_URL names one. */
const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/**
 * LLM requests and tool calls across a thread's subtree, oldest first, with start, duration, time to first token,
 * tokens and cost: where the time and money go. Tool spans come from the event log (`tool.started` … `tool.completed`).
 */
export async function subtreeTimeline(app: App, rootId: string) {
  await app.runtime.getThread(rootId);
  const { rows } = await app.queries.inspectorTimeline.subtreeThreads(rootId);
  const ids = rows.map((r) => r.id);
  const [logs, events] = await Promise.all([
    app.queries.inspectorTimeline.llmSpans(ids, MAX_ITEMS),
    app.queries.inspectorTimeline.toolEvents(ids, MAX_ITEMS * 2),
  ]);
  const tools = new Map<
    string,
    { id: string; threadId: string; name: string; kind: string; start: number; end: number | null; status: string | null; attempt: number }
  >();
  for (const e of events) {
    const d = e.data as { toolCallId?: string; name?: string; kind?: string; status?: string; durationMs?: number; attempt?: number };
    if (!d.toolCallId) continue;
    const key = `${e.threadId}:${d.toolCallId}`;
    const at = e.createdAt.getTime();
    if (e.type === "tool.started") {
      // A re-run after a restart starts the call again: its span is the last run's (attempt 2 or more).
      const attempt = d.attempt ?? 1;
      tools.set(key, { id: d.toolCallId, threadId: e.threadId, name: d.name ?? "?", kind: d.kind ?? "tool", start: at, end: null, status: null, attempt });
    } else {
      const t = tools.get(key) ?? { id: d.toolCallId, threadId: e.threadId, name: d.name ?? "?", kind: "tool", start: at - (d.durationMs ?? 0), end: null, status: null, attempt: d.attempt ?? 1 };
      t.end = at;
      t.status = d.status ?? "success";
      tools.set(key, t);
    }
  }
  const names = new Map(rows.map((r) => [r.id, { agent: r.agentId, name: r.name }]));
  const llm = logs.map((l) => ({
    kind: "llm" as const,
    id: l.id,
    threadId: l.threadId,
    label: l.modelName,
    side: l.side,
    step: l.step,
    attempt: l.attempt,
    status: l.status,
    error: l.error,
    start: l.startedAt.getTime(),
    end: l.finishedAt ? l.finishedAt.getTime() : null,
    ttftMs: l.ttftMs,
    inputTokens: l.inputTokens,
    outputTokens: l.outputTokens,
    cachedTokens: l.cachedTokens,
    cost: l.cost,
  }));
  const calls = [...tools.values()].map(({ kind: toolKind, ...t }) => ({ kind: "tool" as const, toolKind, ...t, label: t.name }));
  const items = [...llm, ...calls].sort((a, b) => a.start - b.start).slice(0, MAX_ITEMS);
  return {
    items,
    threads: Object.fromEntries(names),
    truncated: logs.length >= MAX_ITEMS || events.length >= MAX_ITEMS * 2,
  };
}

export type SubtreeTimeline = Awaited<ReturnType<typeof subtreeTimeline>>;

/**
 * One LLM request log in full (system prompt, messages, tools offered, response, usage). Secret values were redacted
 * when the log was written; they are redacted again here with the thread's current secrets, in case one changed since.
 */
export async function llmLog(app: App, logId: string) {
  // Through the store: a request stored as a delta is read back in full.
  const row = await app.persistence.llmLogs.get(logId);
  if (!row) throw new NotFoundError(`Request log ${logId} not found`);
  const thread = await app.persistence.threads.get(row.threadId);
  const rowsEnv = [
    ...(await app.persistence.env.list("thread", row.threadId)),
    ...(thread?.userId ? await app.persistence.env.list("user", thread.userId) : []),
    ...(await app.persistence.env.list("instance", "instance")),
  ];
  const secrets = secretValues(rowsEnv, app.runtime.deps.secrets);
  const model = app.registry.current().models.get(row.modelName)?.definition;
  const neighbors = await app.queries.requestLogNeighbors({
    id: row.id,
    threadId: row.threadId,
    startedAt: row.startedAt,
  });
  const request = redactDeep(row.request, secrets);
  const body = (request && typeof request === "object" ? request : {}) as { messages?: unknown; tools?: unknown };
  const messages = (Array.isArray(body.messages) ? body.messages : []) as { role: string; content: unknown; tool_calls?: unknown }[];
  const tools = (Array.isArray(body.tools) ? body.tools : []) as { function?: { name?: string; description?: string } }[];
  return {
    id: row.id,
    threadId: row.threadId,
    model: row.modelName,
    provider: row.provider,
    modelId: row.modelId,
    side: row.side,
    step: row.step,
    attempt: row.attempt,
    status: row.status,
    error: row.error ? redactDeep(row.error, secrets) : null,
    usage: { inputTokens: row.inputTokens, outputTokens: row.outputTokens, cachedTokens: row.cachedTokens, cost: row.cost },
    latencyMs: row.latencyMs,
    ttftMs: row.ttftMs,
    startedAt: row.startedAt.getTime(),
    finishedAt: row.finishedAt?.getTime() ?? null,
    messages: messages.map((m) => ({ role: String(m.role), content: (m.content ?? m.tool_calls ?? null) as unknown })),
    tools: tools.map((t) => ({ name: t.function?.name ?? "?", description: t.function?.description ?? "" })),
    request,
    response: redactDeep(row.response, secrets),
    /** The model definitions a replay may send this request to. */
    models: [...app.registry.current().models.keys()].sort(),
    /** Where the request went (never the key: only the name of the variable that holds it). */
    endpoint: {
      url: `${(model?.baseURL || app.runtime.deps.settings.defaultBaseURL || DEFAULT_BASE_URL).replace(/\/+$/, "")}/chat/completions`,
      apiKeyEnv: model?.apiKeyEnv ?? "OPENAI_API_KEY",
    },
    /** The model's context window (tokens), when its definition declares one. */
    contextWindow: model?.capabilities?.maxContextTokens ?? null,
    /** The thread's previous and next requests, for stepping through them. */
    neighbors,
  };
}
