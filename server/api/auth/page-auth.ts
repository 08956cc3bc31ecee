import type { Caller } from "@/shared/caller";
import type { App } from "../app-context";
import { anyUser, sessionCookie } from "./guard";
import { resolveToken } from "./sessions";

/** Pages anyone may open: sign-in and first-run setup. */
export const PUBLIC_PAGES = new Set(["/login", "/setup"]);

export interface PageAuth {
  /** The signed-in user (local mode: the local administrator), or null when the visitor must sign in. */
  caller: Caller | null;
  setupNeeded: boolean;
}

/** Who is looking at a page: the session cookie, or the local mode while no account exists. */
export async function pageAuth(app: App, cookieHeader: string | null): Promise<PageAuth> {
  const token = sessionCookie(cookieHeader);
  const found = token ? await resolveToken(app.queries, token) : null;
  if (found?.via === "session") {
    return { caller: { userId: found.user.id, username: found.user.username, role: found.user.role, via: "session" }, setupNeeded: false };
  }
  if (await anyUser(app)) return { caller: null, setupNeeded: false };
  return { caller: { userId: null, username: null, role: "admin", via: "local" }, setupNeeded: true };
}
