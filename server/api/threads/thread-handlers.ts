import { registryByChild, toSpecMessage } from "@/server/runtime/kernel/to-spec";
import type { App } from "../app-context";
import { ownerFilter, ownerOf } from "../auth/access";
import { readJson, type RouteContext } from "../rest/router";
import { createThreadBody, listMessagesQuery, listThreadsQuery, parseQuery, postMessageBody } from "./schemas";
import { threadView } from "./views";

type Ctx = RouteContext<App>;

/** `POST /api/threads` → 201 `{threadId, thread}`. */
export async function createThreadHandler({ request, app, caller }: Ctx): Promise<Response> {
  const body = createThreadBody.parse(await readJson(request));
  const thread = await app.runtime.createThread({
    userId: ownerOf(caller),
    agentId: body.agent_id,
    env: body.env,
    envTypes: body.env_types,
    tags: body.tags,
    initialMessages: body.initial_messages?.map((m) => ({ role: m.role, content: m.content, silent: m.silent, metadata: m.metadata })),
  });
  // A new thread's own values are the ones just given: none to read back when none were.
  const env = body.env && Object.keys(body.env).length > 0 ? await app.persistence.env.list("thread", thread.id) : [];
  return Response.json({ threadId: thread.id, thread: threadView(thread, env) }, { status: 201 });
}

/** `GET /api/threads` with `agent_id`, `parent_id`, `status`, `search`, `limit`, `offset`. */
export async function listThreadsHandler({ url, app, caller }: Ctx): Promise<Response> {
  const q = parseQuery(listThreadsQuery, url.searchParams);
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const { threads, total } = await app.persistence.threads.list({
    agentId: q.agent_id,
    parentId: q.parent_id,
    status: q.status,
    search: q.search,
    userId: caller ? ownerFilter(caller) : undefined,
    limit,
    offset,
  });
  return Response.json({ threads: threads.map((t) => threadView(t)), total, limit, offset });
}

/** `GET /api/threads/:id`. */
export async function getThreadHandler({ params, app }: Ctx): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  const env = await app.persistence.env.list("thread", thread.id);
  // A thread (or a descendant) holding a tool call for a human decision says so beside its status.
  const pending = await app.runtime.listApprovals(thread.id);
  return Response.json({ thread: { ...threadView(thread, env), waiting_for: pending.length > 0 ? "approval" : null, pending_approvals: pending.length } });
}

/** `GET /api/threads/:id/messages` in the spec's Message shape; silent ones only with `includeSilent=true`. */
export async function listMessagesHandler({ params, url, app }: Ctx): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  const q = parseQuery(listMessagesQuery, url.searchParams);
  const includeSilent = q.includeSilent === "true" || q.includeSilent === "1";
  const messages = await app.persistence.messages.list(thread.id, {
    includeSilent,
    limit: q.limit,
    offset: q.offset,
    order: q.order,
    afterSeq: q.after_seq,
  });
  const registry = registryByChild(await app.persistence.subagents.listByParent(thread.id));
  return Response.json({ messages: messages.map((m) => ({ ...toSpecMessage(m, registry), seq: m.seq, side: m.side })) });
}

/** `POST /api/threads/:id/messages` → 202 `{messageId}`. */
export async function postMessageHandler({ params, request, app }: Ctx): Promise<Response> {
  const body = postMessageBody.parse(await readJson(request));
  const result = await app.runtime.postMessage(params.id!, {
    content: body.content,
    role: body.role,
    attachments: body.attachments as never,
    silent: body.silent,
    metadata: body.metadata,
  });
  return Response.json(result, { status: 202 });
}

/** `POST …/stop`: 200 once the stop was applied; 202 while it is recorded but still pending (`stop_requested`). */
export async function stopHandler({ params, app }: Ctx): Promise<Response> {
  const thread = await app.runtime.stop(params.id!);
  return Response.json({ thread: threadView(thread) }, { status: thread.stopRequestedAt === null ? 200 : 202 });
}

/** `POST …/continue`: 202 when a turn was started; on a running thread a no-op answering 200 with its status. */
export async function continueHandler({ params, app }: Ctx): Promise<Response> {
  const { thread, started } = await app.runtime.requestContinue(params.id!);
  return Response.json({ thread: threadView(thread) }, { status: started ? 202 : 200 });
}

export async function terminateHandler({ params, app }: Ctx): Promise<Response> {
  return Response.json({ thread: threadView(await app.runtime.terminate(params.id!)) });
}

/**
 * `DELETE /api/threads/:id/messages/:messageId` → 200 `{deleted: [ids]}`: an assistant message goes with the tool
 * results of its calls; 409 while the thread runs or for a tool result alone.
 */
export async function deleteMessageHandler({ params, app }: Ctx): Promise<Response> {
  return Response.json(await app.runtime.deleteMessage(params.id!, params.messageId!));
}
