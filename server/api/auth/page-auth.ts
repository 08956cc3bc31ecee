import type { Caller } from "@/shared/caller";
import type { App } from "../app-context";
import type { HasHeaders } from "./client-address";
import { anyUser, localCaller, sessionCookie } from "./guard";
import { resolveToken } from "./sessions";

/** Pages anyone may open: sign-in and first-run setup. */
export const PUBLIC_PAGES = new Set(["/login", "/setup"]);

export interface PageAuth {
  /** The signed-in user (local mode: the local administrator), or null when the visitor must sign in. */
  caller: Caller | null;
  setupNeeded: boolean;
  /** Setup from this visitor needs the one-time setup token from the server log (not a request from this machine). */
  setupTokenRequired: boolean;
}

/** Who is looking at a page (its request headers): the session cookie, or local mode while no account exists. */
export async function pageAuth(app: App, headers: HasHeaders["headers"]): Promise<PageAuth> {
  const token = sessionCookie(headers.get("cookie"));
  const found = token ? await resolveToken(app.queries, token) : null;
  if (found?.via === "session") {
    return { caller: { userId: found.user.id, username: found.user.username, role: found.user.role, via: "session" }, setupNeeded: false, setupTokenRequired: false };
  }
  if (await anyUser(app)) return { caller: null, setupNeeded: false, setupTokenRequired: false };
  const local = await localCaller(app, { headers });
  return { caller: local, setupNeeded: true, setupTokenRequired: !local };
}
