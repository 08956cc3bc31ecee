import type { ApiScope } from "@/shared/api-scopes";
import type { Caller } from "@/shared/caller";
import type { App } from "../app-context";
import { ApiError } from "../errors";

/**
 * Authorization rules, in one place. A user sees and touches only their own threads (a subagent thread belongs to
 * the owner of the thread that spawned it); an admin, and the local account-less mode, see every thread. Another
 * user's thread answers exactly like one that does not exist (404), so ids cannot be probed.
 */
export const isAdmin = (caller: Caller | null | undefined): boolean => caller?.role === "admin";

/** The owner filter for thread lists: undefined for admins (all threads). */
export function ownerFilter(caller: Caller): string | undefined {
  return isAdmin(caller) ? undefined : (caller.userId ?? "\u0000nobody");
}

/** The owner to record on a new thread: the signed-in user (null in local mode). */
export const ownerOf = (caller: Caller | null | undefined): string | null => caller?.userId ?? null;

export async function canSeeThread(app: App, caller: Caller, threadId: string): Promise<boolean> {
  if (isAdmin(caller)) return true;
  const owner = await app.queries.threadAccess.ownerOf(threadId);
  return owner === undefined || (caller.userId !== null && owner === caller.userId);
}

/** 404 unless the caller may see the thread (a thread that does not exist is left to the handler's own 404). */
export async function assertThreadAccess(app: App, caller: Caller, threadId: string): Promise<void> {
  if (!(await canSeeThread(app, caller, threadId))) throw new ApiError(404, "NOT_FOUND", `Thread ${threadId} not found`);
}

/** Of the given thread ids, those the caller may see. */
export async function visibleThreadIds(app: App, caller: Caller, ids: string[]): Promise<Set<string>> {
  if (isAdmin(caller)) return new Set(ids);
  if (ids.length === 0 || !caller.userId) return new Set();
  return new Set(await app.queries.threadAccess.ownedBy(caller.userId, ids));
}

/** 403 for anyone but an admin. */
export function assertAdmin(caller: Caller | null | undefined, what = "This"): void {
  if (!isAdmin(caller)) throw new ApiError(403, "FORBIDDEN", `${what} is for administrators only`);
}

/** 403 in local mode for what needs a signed-in account (API keys, my variables). */
export function assertAccount(caller: Caller | null | undefined): asserts caller is Caller & { userId: string } {
  if (!caller?.userId) throw new ApiError(403, "FORBIDDEN", "This needs a signed-in account: create the first admin at /setup");
}

/** 403 for an API key: managing keys (and so minting new credentials) needs a signed-in session. */
export function assertSession(caller: Caller | null | undefined, what = "Managing API keys"): void {
  if (caller?.via === "api-key") throw new ApiError(403, "SESSION_REQUIRED", `${what} needs a signed-in session, not an API key`);
}

/** 403 for an API key without the scope; sessions and local mode are limited by the role alone. */
export function assertScope(caller: Caller | null | undefined, scope: ApiScope): void {
  if (caller?.via === "api-key" && !caller.scopes?.includes(scope)) {
    throw new ApiError(403, "INSUFFICIENT_SCOPE", `This API key lacks the ${scope} scope`, [{ path: "scopes", message: `needs ${scope}` }]);
  }
}
