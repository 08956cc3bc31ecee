import * as client from "openid-client";
import type { AppConfig } from "@/server/env";
import { ApiError } from "../errors";

/**
 * The OpenID Connect relying party (authorization code flow with PKCE, through openid-client). The provider's
 * metadata is discovered once per process; a failed discovery is retried on the next sign-in.
 */
export type OidcSettings = Pick<AppConfig, "OIDC_ISSUER" | "OIDC_CLIENT_ID" | "OIDC_CLIENT_SECRET" | "OIDC_SCOPES" | "OIDC_REDIRECT_URI">;

const discovered = new Map<string, Promise<client.Configuration>>();

/** Plain http is accepted only for a provider on this machine (development and tests). */
function isLoopback(url: URL): boolean {
  return ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

async function configuration(s: OidcSettings): Promise<client.Configuration> {
  if (!s.OIDC_ISSUER || !s.OIDC_CLIENT_ID) throw new ApiError(404, "NOT_FOUND", "Single sign-on is not configured (OIDC_ISSUER, OIDC_CLIENT_ID)");
  const issuer = new URL(s.OIDC_ISSUER);
  const key = `${issuer.href}|${s.OIDC_CLIENT_ID}`;
  let found = discovered.get(key);
  if (!found) {
    const auth = s.OIDC_CLIENT_SECRET ? client.ClientSecretBasic(s.OIDC_CLIENT_SECRET) : client.None();
    const insecure = issuer.protocol === "http:" && isLoopback(issuer);
    found = client.discovery(issuer, s.OIDC_CLIENT_ID, s.OIDC_CLIENT_SECRET, auth, insecure ? { execute: [client.allowInsecureRequests] } : undefined);
    discovered.set(key, found);
    found.catch(() => discovered.delete(key));
  }
  try {
    return await found;
  } catch (err) {
    throw new ApiError(502, "OIDC_UNAVAILABLE", `The identity provider at ${issuer.href} could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * This app's origin as the browser addresses it: OIDC_REDIRECT_URI's when set (behind a proxy that changes the scheme
 * or the host), else the request's Host header (Next.js builds a route's `request.url` on its own host name).
 */
export function publicOrigin(s: OidcSettings, request: Request): string {
  if (s.OIDC_REDIRECT_URI) return new URL(s.OIDC_REDIRECT_URI).origin;
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host ? `${url.protocol}//${host}` : url.origin;
}

/** The callback URL registered at the provider. */
export function redirectUri(s: OidcSettings, request: Request): string {
  return s.OIDC_REDIRECT_URI ?? new URL("/api/auth/oidc/callback", publicOrigin(s, request)).href;
}

/** What the callback needs to finish the flow it started: kept in a short-lived httpOnly cookie. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
}

/** The provider's authorization URL for a new sign-in, and the checks to keep until its callback. */
export async function startSignIn(s: OidcSettings, request: Request, next: string): Promise<{ url: URL; pending: PendingSignIn }> {
  const config = await configuration(s);
  const pending = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), next };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(s, request),
    scope: s.OIDC_SCOPES,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: "S256",
  });
  return { url, pending };
}

/**
 * Finish a sign-in: exchange the code (checking state, nonce and the PKCE verifier) and return the identity: the
 * issuer, the subject and the claims of the ID token merged with the UserInfo response.
 */
export async function finishSignIn(s: OidcSettings, request: Request, pending: PendingSignIn): Promise<{ issuer: string; subject: string; claims: Record<string, unknown> }> {
  const config = await configuration(s);
  // The response parameters on the registered callback URL (the request may have reached us under another name).
  const current = new URL(redirectUri(s, request));
  current.search = new URL(request.url).search;
  const tokens = await client.authorizationCodeGrant(config, current, {
    pkceCodeVerifier: pending.verifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new ApiError(502, "OIDC_FAILED", "The identity provider returned no ID token");
  let claims: Record<string, unknown> = { ...idClaims };
  if (config.serverMetadata().userinfo_endpoint) {
    claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...claims };
  }
  return { issuer: config.serverMetadata().issuer, subject: idClaims.sub, claims };
}
