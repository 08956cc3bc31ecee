import type { App } from "@/server/worker/app";
import { ApiError } from "../errors";
import { resolveToken, SESSION_COOKIE } from "./sessions";

/** Who is calling: resolved once per request by the guard and handed to every route. */
export interface Caller {
  /** The signed-in user, or null in the local, account-less mode. */
  userId: string | null;
  username: string | null;
  role: "admin" | "user";
  via: "local" | "session" | "api-key";
}

/** Routes that need no caller at all. */
export const PUBLIC_PATHS = new Set(["/api/health", "/api/auth/login"]);

export function bearerOrCookie(request: Request): string | null {
  const auth = request.headers.get("authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) return auth.slice(7).trim() || null;
  const cookie = request.headers.get("cookie") ?? "";
  const m = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`).exec(cookie);
  return m ? decodeURIComponent(m[1]!) : null;
}

let usersExist: { at: number; value: boolean } | null = null;
async function anyUser(app: App): Promise<boolean> {
  if (usersExist?.value || (usersExist && Date.now() - usersExist.at < 2000)) return usersExist.value;
  const value = (await app.prisma.user.count()) > 0;
  usersExist = { at: Date.now(), value };
  return value;
}

/**
 * The single auth guard of every REST route, tRPC procedure and SSE stream. A bearer token (API key or session token)
 * or the session cookie identifies the user; a bad token is 401. Until the first account exists (no ADMIN_USERNAME
 * and no sign-up yet) the app runs in local mode and admits every request as the local administrator.
 */
export async function authenticate(request: Request, app: App): Promise<Caller> {
  const token = bearerOrCookie(request);
  if (token) {
    const found = await resolveToken(app.prisma, token);
    if (!found) throw new ApiError(401, "UNAUTHORIZED", "The token is invalid or expired: sign in again with POST /api/auth/login");
    return { userId: found.user.id, username: found.user.username, role: found.user.role, via: found.via };
  }
  if (await anyUser(app)) {
    throw new ApiError(401, "UNAUTHORIZED", "Sign in first: send Authorization: Bearer <token> (POST /api/auth/login gives one) or an API key");
  }
  return { userId: null, username: null, role: "admin", via: "local" };
}
