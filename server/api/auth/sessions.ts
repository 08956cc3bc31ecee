import { createHash, randomBytes } from "node:crypto";
import { parseScopes, type ApiScope } from "@/shared/api-scopes";
import type { Queries } from "@/server/db/queries/create-queries";
import { passwordProblem } from "./password-policy";
import { hashPassword, needsRehash, verifyPassword } from "./passwords";

const SESSION_DAYS = 30;
export const SESSION_COOKIE = "studio_session";

export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

export interface AuthUser {
  id: string;
  username: string;
  role: "admin" | "user";
}

export const toUser = (u: { id: string; username: string; role: string }): AuthUser => ({ id: u.id, username: u.username, role: u.role === "admin" ? "admin" : "user" });

/**
 * Sign in: a new session token (only its hash is stored); null for a wrong username or password, "deactivated" for the
 * right password of a deactivated account.
 */
export async function login(db: Queries, username: string, password: string): Promise<{ token: string; user: AuthUser; expiresAt: Date } | "deactivated" | null> {
  const user = await db.users.byUsername(username);
  // Hash anyway when the user does not exist, so timing does not tell which usernames exist.
  const ok = user ? await verifyPassword(password, user.passwordHash) : (await hashPassword(password), false);
  if (!user || !ok) return null;
  if (user.deactivatedAt) return "deactivated";
  if (needsRehash(user.passwordHash)) await db.users.update(user.id, { passwordHash: await hashPassword(password) });
  return { ...(await createSession(db, user.id)), user: toUser(user) };
}

/** A new session for a user: the token is returned once, only its hash is stored. */
export async function createSession(db: Queries, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = `sas_${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  await db.sessions.create({ tokenHash: tokenHash(token), userId, expiresAt });
  return { token, expiresAt };
}

export async function logout(db: Queries, token: string): Promise<void> {
  await db.sessions.removeByTokenHash(tokenHash(token));
}

/** Sign a user out everywhere and revoke their API keys (password reset, deactivation). */
export async function revokeCredentials(db: Queries, userId: string): Promise<void> {
  await db.sessions.removeForUser(userId);
  await db.apiKeys.revokeAllForUser(userId);
}

/**
 * The user a session token or an API key belongs to (with the key's scopes), or null: unknown, expired, revoked, or
 * the account is deactivated.
 */
export async function resolveToken(db: Queries, token: string): Promise<{ user: AuthUser; via: "session" | "api-key"; scopes?: ApiScope[] } | null> {
  const h = tokenHash(token);
  const now = new Date();
  const session = await db.sessions.byTokenHash(h);
  if (session && session.expiresAt > now && !session.user.deactivatedAt) {
    return { user: toUser(session.user), via: "session" };
  }
  const key = await db.apiKeys.byKeyHash(h);
  if (key && !key.revokedAt && !(key.expiresAt && key.expiresAt <= now) && !key.user.deactivatedAt) {
    db.apiKeys.touch(key.id);
    return { user: toUser(key.user), via: "api-key", scopes: parseScopes(key.scopes) };
  }
  return null;
}

/**
 * On start: create the first admin from ADMIN_USERNAME / ADMIN_PASSWORD when that user does not exist yet. The
 * password must pass the rules of any new password; an existing account is left as it is.
 */
export async function ensureAdmin(db: Queries, username: string | undefined, password: string | undefined): Promise<void> {
  if (!username || !password) return;
  if (await db.users.byUsername(username)) return;
  const problem = passwordProblem(password);
  if (problem) throw new Error(`ADMIN_PASSWORD: ${problem} (the admin account "${username}" was not created)`);
  await db.users.create({ username, passwordHash: await hashPassword(password), role: "admin" });
  console.log(`[auth] created the admin account "${username}"`);
}
