import { z } from "zod";
import type { App } from "../app-context";
import { ApiError } from "../errors";
import { readJson, type RouteContext } from "../rest/router";
import { setupBody, setupFirstAdmin } from "../accounts/users";
import { clientAddress, isLocalRequest } from "./client-address";
import { assertSameOrigin } from "./csrf";
import { anyUser, bearerOrCookie } from "./guard";
import { isRefusal, LoginLimiter } from "./login-limits";
import { createSession, login, logout, SESSION_COOKIE } from "./sessions";
import { announceSetupToken, isSetupToken, retireSetupToken } from "./setup-token";

const loginBody = z.object({ username: z.string().min(1).max(200), password: z.string().min(1).max(1000) });

const limiters = new WeakMap<App, LoginLimiter>();
const limiterOf = (app: App) => limiters.get(app) ?? limiters.set(app, new LoginLimiter()).get(app)!;

export const sessionCookieHeader = (token: string, maxAge: number, secure: boolean) =>
  `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;

/** `POST /api/auth/login {username, password}` → `{token, user}`, and the session cookie for browsers. */
export async function loginHandler({ request, app, url }: RouteContext<App>): Promise<Response> {
  assertSameOrigin(request, false);
  const body = loginBody.parse(await readJson(request));
  const client = clientAddress(request, app.config.TRUSTED_PROXIES);
  const attempt = limiterOf(app).begin(client === "unknown" ? null : client, body.username);
  if (isRefusal(attempt)) {
    const seconds = Math.max(1, Math.ceil(attempt.retryAfterMs / 1000));
    const why = attempt.reason === "source" ? "Too many failed sign-ins from this address" : "Too many failed sign-ins for this username";
    throw new ApiError(429, "RATE_LIMITED", `${why}: try again in ${seconds} s`, undefined, { "retry-after": String(seconds) });
  }
  const result = await login(app.queries, body.username, body.password).catch((err: unknown) => {
    attempt.failed();
    throw err;
  });
  if (!result || result === "deactivated") {
    attempt.failed();
    if (result === "deactivated") throw new ApiError(403, "ACCOUNT_DEACTIVATED", "This account is deactivated: ask an administrator");
    throw new ApiError(401, "UNAUTHORIZED", "Wrong username or password");
  }
  attempt.succeeded();
  const maxAge = Math.floor((result.expiresAt.getTime() - Date.now()) / 1000);
  return Response.json(
    { token: result.token, user: result.user, expires_at: result.expiresAt.toISOString() },
    { headers: { "set-cookie": sessionCookieHeader(result.token, maxAge, url.protocol === "https:") } },
  );
}

/** `POST /api/auth/logout`: ends the session of the presented token or cookie. */
export async function logoutHandler({ request, app, url }: RouteContext<App>): Promise<Response> {
  const token = bearerOrCookie(request);
  if (token) await logout(app.queries, token);
  return Response.json({ ok: true }, { headers: { "set-cookie": sessionCookieHeader("", 0, url.protocol === "https:") } });
}

/** `GET /api/auth/me`: the caller. */
export function meHandler({ caller }: RouteContext<App>): Response {
  return Response.json({ user: caller && caller.userId ? { id: caller.userId, username: caller.username, role: caller.role } : null, mode: caller?.via ?? "local" });
}

/**
 * `POST /api/auth/setup {username, password, setup_token?}`: first-run setup. While no account exists, creates the
 * first admin and signs them in; afterwards 409. From anywhere but this machine it needs the one-time setup token
 * printed in the server log (401 without it). `GET` says whether setup is still possible and whether it needs the token.
 */
export async function setupHandler({ request, app, url }: RouteContext<App>): Promise<Response> {
  const setupNeeded = !(await anyUser(app));
  const local = isLocalRequest(request, app.config.TRUSTED_PROXIES);
  if (request.method === "GET") return Response.json({ setup_needed: setupNeeded, setup_token_required: setupNeeded && !local });
  assertSameOrigin(request, false);
  if (!setupNeeded) throw new ApiError(409, "CONFLICT", "Setup is done: an account already exists. Sign in instead.");
  const body = setupBody.parse(await readJson(request));
  if (!local && !isSetupToken(body.setup_token)) {
    announceSetupToken();
    throw new ApiError(401, "SETUP_TOKEN_REQUIRED", "Enter the one-time setup token printed in the server log: setup from another machine needs it", [
      { path: "setup_token", message: body.setup_token ? "wrong token" : "required" },
    ]);
  }
  const user = await setupFirstAdmin(app.queries, body);
  retireSetupToken();
  const session = await createSession(app.queries, user.id);
  const maxAge = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000);
  return Response.json(
    { token: session.token, user: { id: user.id, username: user.username, role: user.role } },
    { status: 201, headers: { "set-cookie": sessionCookieHeader(session.token, maxAge, url.protocol === "https:") } },
  );
}
