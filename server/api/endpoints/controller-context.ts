import type { ControllerContext, ThreadMetadata } from "@/server/spec";
import type { Caller } from "@/shared/caller";
import type { App } from "../app-context";
import { canSeeThread, ownerFilter, ownerOf } from "../auth/access";

/**
 * What a controller works with: the request and its params, the caller, and the caller's threads. Threads are created
 * as the caller (owned by them) and looked up with the same rules as the REST API: another user's thread is `null`.
 */
export function controllerContext(app: App, caller: Caller | null, request: Request, url: URL, params: Record<string, string>): ControllerContext {
  return {
    request,
    url,
    params,
    user: caller?.userId ? { id: caller.userId, username: caller.username ?? "", role: caller.role } : null,
    threads: {
      async create(agentName, options = {}) {
        const thread = await app.runtime.createThread({ userId: ownerOf(caller), agentId: agentName, env: options.env, tags: options.tags });
        if (options.message !== undefined) await app.runtime.postMessage(thread.id, { content: options.message });
        return app.runtime.threadState(thread.id);
      },
      async get(threadId) {
        if (caller && !(await canSeeThread(app, caller, threadId))) return null;
        if (!(await app.persistence.threads.get(threadId))) return null;
        return app.runtime.threadState(threadId);
      },
      async list(options = {}) {
        const { threads } = await app.persistence.threads.list({
          agentId: options.agentName,
          userId: caller ? ownerFilter(caller) : undefined,
          limit: options.limit ?? 50,
          offset: 0,
        });
        return threads.map(
          (t): ThreadMetadata => ({ id: t.id, agent_id: t.agentId, status: t.status, tags: t.tags, created_at: t.createdAt.toISOString() }),
        );
      },
    },
  };
}
