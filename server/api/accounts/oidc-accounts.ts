import type { Queries } from "@/server/db/queries/create-queries";
import type { UserRow } from "@/server/db/queries/users";
import type { AppConfig } from "@/server/env";
import { ApiError } from "../errors";
import { forgetUserCount } from "../auth/guard";

export type OidcRoleSettings = Pick<AppConfig, "OIDC_ADMIN_CLAIM" | "OIDC_ADMIN_VALUE">;

/**
 * The role a claim gives: with OIDC_ADMIN_CLAIM set, admin when the claim equals OIDC_ADMIN_VALUE (or, for a list,
 * contains it; without a value, when it is `true`), else user. Without OIDC_ADMIN_CLAIM roles are managed in the app
 * (null: leave the role alone).
 */
export function roleFromClaims(s: OidcRoleSettings, claims: Record<string, unknown>): "admin" | "user" | null {
  if (!s.OIDC_ADMIN_CLAIM) return null;
  const value = claims[s.OIDC_ADMIN_CLAIM];
  const wanted = s.OIDC_ADMIN_VALUE;
  const matches = (v: unknown) => (wanted === undefined ? v === true || v === "true" : v === wanted);
  return (Array.isArray(value) ? value.some(matches) : matches(value)) ? "admin" : "user";
}

/** A username from the identity: preferred_username, else the email, else the subject, made to fit the app's rules. */
function baseUsername(claims: Record<string, unknown>, subject: string): string {
  const raw = [claims.preferred_username, claims.email, subject].find((v): v is string => typeof v === "string" && v.trim() !== "") ?? subject;
  const cleaned = raw
    .toLowerCase()
    .replace(/[^a-z0-9_.@-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 90);
  return cleaned || "user";
}

/**
 * The account of an identity: found by its `<issuer>#<sub>` link, or created at its first sign-in (never linked to an
 * existing local account by name, which the identity provider's users could otherwise choose to take over). Its role
 * follows the admin claim at every sign-in (the last active administrator is never demoted); the first account of an
 * instance is an administrator.
 */
export async function accountForIdentity(db: Queries, s: OidcRoleSettings, identity: { issuer: string; subject: string; claims: Record<string, unknown> }): Promise<{ user: UserRow; created: boolean }> {
  const link = `${identity.issuer}#${identity.subject}`;
  const role = roleFromClaims(s, identity.claims);
  const existing = await db.users.byOidcSubject(link);
  if (existing) {
    if (existing.deactivatedAt) throw new ApiError(403, "ACCOUNT_DEACTIVATED", "This account is deactivated: ask an administrator");
    const keepAdmin = existing.role === "admin" && role === "user" && (await db.users.otherAdmins(existing.id)) === 0;
    const user = role && role !== existing.role && !keepAdmin ? await db.users.update(existing.id, { role }) : existing;
    return { user, created: false };
  }
  const base = baseUsername(identity.claims, identity.subject);
  let username = base;
  for (let n = 2; await db.users.byUsername(username); n++) username = `${base}-${n}`;
  const first = (await db.users.count()) === 0;
  // No password: this account signs in through the identity provider only.
  const user = await db.users.create({ username, passwordHash: "", role: first ? "admin" : (role ?? "user"), oidcSubject: link });
  forgetUserCount(db);
  return { user, created: true };
}
