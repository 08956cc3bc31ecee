import type { Caller } from "@/shared/caller";
import type { App } from "../app-context";
import { ApiError } from "../errors";
import { assertSameOrigin } from "./csrf";
import { resolveToken, SESSION_COOKIE } from "./sessions";

/** Routes that need no caller at all (sign-in, and first-run setup, which refuses once an account exists). */
export const PUBLIC_PATHS = new Set(["/api/health", "/api/auth/login", "/api/auth/setup"]);

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

let usersExist: { at: number; value: boolean } | null = null;
/** Whether any account exists (cached briefly; once true it stays true until `forgetUserCount`). */
export async function anyUser(app: App): Promise<boolean> {
  if (usersExist?.value || (usersExist && Date.now() - usersExist.at < 2000)) return usersExist.value;
  const value = (await app.queries.users.count()) > 0;
  usersExist = { at: Date.now(), value };
  return value;
}

/** Drop the cached answer of `anyUser` (after the first account is created or the last one removed). */
export function forgetUserCount(): void {
  usersExist = null;
}

/**
 * The single auth guard of every REST route, tRPC procedure and SSE stream. A bearer token (API key or session token)
 * or the session cookie identifies the user; a bad token is 401. A cookie-authenticated (or credential-less) unsafe
 * request must come from this origin (CSRF). Until the first account exists (no ADMIN_USERNAME and no first-run
 * setup yet) the app runs in local mode and admits every request as the local administrator.
 */
export async function authenticate(request: Request, app: App): Promise<Caller> {
  const presented = presentedToken(request);
  assertSameOrigin(request, presented?.from === "cookie");
  if (presented) {
    const found = await resolveToken(app.queries, presented.token);
    if (!found) throw new ApiError(401, "UNAUTHORIZED", "The token is invalid or expired: sign in again with POST /api/auth/login");
    return { userId: found.user.id, username: found.user.username, role: found.user.role, via: found.via };
  }
  if (await anyUser(app)) {
    throw new ApiError(401, "UNAUTHORIZED", "Sign in first: send Authorization: Bearer <token> (POST /api/auth/login gives one) or an API key");
  }
  return { userId: null, username: null, role: "admin", via: "local" };
}
