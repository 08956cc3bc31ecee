import { safeNextUrl } from "@/shared/safe-next";
import type { App } from "../app-context";
import type { RouteContext } from "../rest/router";
import { accountForIdentity } from "../accounts/oidc-accounts";
import { sessionCookieHeader } from "./handlers";
import { finishSignIn, publicOrigin, startSignIn, type PendingSignIn } from "./oidc-client";
import { createSession } from "./sessions";

/** The flow cookie: what the callback checks (state, nonce, PKCE verifier) and where to go after, for ten minutes. */
const FLOW_COOKIE = "studio_oidc";
const FLOW_PATH = "/api/auth/oidc";

function flowCookie(value: string, maxAge: number, secure: boolean): string {
  return `${FLOW_COOKIE}=${value}; Path=${FLOW_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

function readFlow(cookieHeader: string | null): PendingSignIn | null {
  const raw = new RegExp(`(?:^|;\\s*)${FLOW_COOKIE}=([^;]+)`).exec(cookieHeader ?? "")?.[1];
  if (!raw) return null;
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Partial<PendingSignIn>;
    return typeof v.state === "string" && typeof v.nonce === "string" && typeof v.verifier === "string" ? { state: v.state, nonce: v.nonce, verifier: v.verifier, next: String(v.next ?? "/") } : null;
  } catch {
    return null;
  }
}

/** `GET /api/auth/oidc/login?next=…`: off to the identity provider (authorization code flow with PKCE). */
export async function oidcLoginHandler({ app, url, request }: RouteContext<App>): Promise<Response> {
  const { url: target, pending } = await startSignIn(app.config, request, url.searchParams.get("next") ?? "/");
  const value = Buffer.from(JSON.stringify(pending)).toString("base64url");
  return new Response(null, { status: 302, headers: { location: target.href, "set-cookie": flowCookie(value, 600, url.protocol === "https:") } });
}

/**
 * `GET /api/auth/oidc/callback`: the provider sends the browser back here. The code is exchanged, the account is
 * found or created (its role from the admin claim), a session starts, and the browser goes where it was headed (a
 * page of this origin only). Any failure goes back to the sign-in page with the reason.
 */
export async function oidcCallbackHandler({ request, app, url }: RouteContext<App>): Promise<Response> {
  const secure = url.protocol === "https:";
  const origin = publicOrigin(app.config, request);
  const headers = new Headers();
  headers.append("set-cookie", flowCookie("", 0, secure));
  const pending = readFlow(request.headers.get("cookie"));
  try {
    const providerError = url.searchParams.get("error");
    if (providerError) throw new Error(`The identity provider refused the sign-in: ${url.searchParams.get("error_description") ?? providerError}`);
    if (!pending) throw new Error("The sign-in expired or was started in another browser: try again");
    const identity = await finishSignIn(app.config, request, pending);
    const { user } = await accountForIdentity(app.queries, app.config, identity);
    const session = await createSession(app.queries, user.id);
    headers.append("set-cookie", sessionCookieHeader(session.token, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000), secure));
    headers.set("location", safeNextUrl(pending.next, origin));
  } catch (err) {
    const reason = err instanceof Error && err.message ? err.message : "Single sign-on failed";
    console.warn(`[auth] single sign-on failed: ${reason}`);
    headers.set("location", new URL(`/login?error=${encodeURIComponent(reason)}`, origin).href);
  }
  return new Response(null, { status: 302, headers });
}
