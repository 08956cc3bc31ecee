import type { EnvValueRecord, ThreadRecord } from "@/server/runtime/ports";

export const SECRET_MASK = "••••";

/** A thread as the REST API returns it (design.md §5); secret env values are masked. */
export function threadView(t: ThreadRecord, env?: EnvValueRecord[]) {
  return {
    id: t.id,
    agent_id: t.agentId,
    root_agent_id: t.rootAgentId,
    parent_id: t.parentId,
    user_id: t.userId,
    status: t.status,
    stop_reason: t.stopReason,
    /** A user stop is recorded but not applied yet (the step in flight has not ended). */
    stop_requested: t.stopRequestedAt !== null,
    terminated: t.terminatedAt,
    tags: t.tags,
    name: t.name,
    active_side: t.state.turn?.side ?? null,
    turns: t.state.turnsCompleted,
    session: { ended: t.state.session.ended, reason: t.state.session.reason ?? null },
    /** A fork's origin (`POST /api/threads/:id/fork`), or null. */
    forked_from: t.state.fork ? { thread_id: t.state.fork.fromThreadId, message_id: t.state.fork.fromMessageId, edited: t.state.fork.edited, regenerated_message_id: t.state.fork.regeneratedMessageId ?? null } : null,
    ...(env ? { env: Object.fromEntries(env.map((e) => [e.name, e.type === "secret" ? SECRET_MASK : e.value])) } : {}),
    env_types: env ? Object.fromEntries(env.map((e) => [e.name, e.type])) : undefined,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
    last_activity_at: t.lastActivityAt.toISOString(),
  };
}

export type ThreadView = ReturnType<typeof threadView>;
