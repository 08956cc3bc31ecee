import type { App } from "../app-context";

/** Tokens and cost from the request logs: the thread, its subtree, and a breakdown per thread and per model. */
export async function subtreeUsage(app: App, threadId: string) {
  const thread = await app.runtime.getThread(threadId);
  const ids = await app.queries.usage.subtreeIds(thread.id);
  const [own, subtree, breakdown] = await Promise.all([
    app.persistence.llmLogs.totals([thread.id]),
    app.persistence.llmLogs.totals(ids),
    app.queries.usage.breakdown(ids),
  ]);
  return {
    own,
    subtree: { ...subtree, threads: ids.length },
    threads: breakdown.threads
      .map(({ threadId: id, agentId, ...usage }) => ({ id, agent_id: agentId, ...usage }))
      .sort((a, b) => (a.id === thread.id ? -1 : b.id === thread.id ? 1 : b.cost - a.cost)),
    models: breakdown.models.sort((a, b) => b.cost - a.cost),
  };
}
