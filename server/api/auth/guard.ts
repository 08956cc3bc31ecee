import type { Caller } from "@/shared/caller";
import type { Queries } from "@/server/db/queries/create-queries";
import type { App } from "../app-context";
import { ApiError } from "../errors";
import { isLocalRequest, type HasHeaders } from "./client-address";
import { assertSameOrigin } from "./csrf";
import { announceSetupToken } from "./setup-token";
import { resolveToken, SESSION_COOKIE } from "./sessions";

/** Routes that need no caller at all (sign-in, single sign-on, and first-run setup, which refuses once an account exists). */
export const PUBLIC_PATHS = new Set(["/api/health", "/api/auth/login", "/api/auth/setup", "/api/auth/oidc/login", "/api/auth/oidc/callback"]);

/** The presented credential: an `Authorization: Bearer` token, else the session cookie. */
export function presentedToken(request: Request): { token: string; from: "bearer" | "cookie" } | null {
  const auth = request.headers.get("authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) {
    const token = auth.slice(7).trim();
    return token ? { token, from: "bearer" } : null;
  }
  const token = sessionCookie(request.headers.get("cookie"));
  return token ? { token, from: "cookie" } : null;
}

/** The session token of the cookie header; null when absent or malformed (a bad cookie is no credential, not a 500). */
export function sessionCookie(header: string | null): string | null {
  const m = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`).exec(header ?? "");
  try {
    return m ? decodeURIComponent(m[1]!) || null : null;
  } catch {
    return null;
  }
}

export function bearerOrCookie(request: Request): string | null {
  return presentedToken(request)?.token ?? null;
}

const usersExist = new WeakMap<Queries, { at: number; value: boolean }>();
/** Whether any account exists (cached briefly per database; once true it stays true until `forgetUserCount`). */
export async function anyUser(app: App): Promise<boolean> {
  const cached = usersExist.get(app.queries);
  if (cached && (cached.value || Date.now() - cached.at < 2000)) return cached.value;
  const value = (await app.queries.users.count()) > 0;
  usersExist.set(app.queries, { at: Date.now(), value });
  return value;
}

/** Drop the cached answer of `anyUser` (after the first account is created or an account removed). */
export function forgetUserCount(db: Queries): void {
  usersExist.delete(db);
}

/**
 * Local mode: until the first account exists, a request made on this machine (a loopback client, not relayed by a
 * proxy) is admitted as the local administrator. Anyone else is refused and pointed at /setup, which wants the
 * one-time setup token printed in the server's log: an instance reachable from the network is never open to it.
 */
export async function localCaller(app: App, request: HasHeaders): Promise<Caller | null> {
  if (await anyUser(app)) return null;
  if (isLocalRequest(request, app.config.TRUSTED_PROXIES)) return { userId: null, username: null, role: "admin", via: "local" };
  announceSetupToken();
  return null;
}

/**
 * The single auth guard of every REST route, tRPC procedure and SSE stream. A bearer token (API key or session token)
 * or the session cookie identifies the user; a bad token is 401. A cookie-authenticated (or credential-less) unsafe
 * request must come from this origin (CSRF). Until the first account exists (no ADMIN_USERNAME and no first-run
 * setup yet), requests from this machine run in local mode as the local administrator (`localCaller`).
 */
export async function authenticate(request: Request, app: App): Promise<Caller> {
  const presented = presentedToken(request);
  assertSameOrigin(request, presented?.from === "cookie");
  if (presented) {
    const found = await resolveToken(app.queries, presented.token);
    if (!found) throw new ApiError(401, "UNAUTHORIZED", "The token is invalid or expired: sign in again with POST /api/auth/login");
    return { userId: found.user.id, username: found.user.username, role: found.user.role, via: found.via, ...(found.scopes ? { scopes: found.scopes } : {}) };
  }
  const local = await localCaller(app, request);
  if (local) return local;
  if (!(await anyUser(app))) {
    throw new ApiError(401, "SETUP_REQUIRED", "No account exists yet: create the administrator at /setup with the one-time setup token printed in the server log");
  }
  throw new ApiError(401, "UNAUTHORIZED", "Sign in first: send Authorization: Bearer <token> (POST /api/auth/login gives one) or an API key");
}
