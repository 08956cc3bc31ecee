import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "@/server/db/client";
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

/** Sign in: a new session token (only its hash is stored). */
export async function login(prisma: PrismaClient, username: string, password: string): Promise<{ token: string; user: AuthUser; expiresAt: Date } | null> {
  const user = await prisma.user.findUnique({ where: { username } });
  // Hash anyway when the user does not exist, so timing does not tell which usernames exist.
  const ok = user ? await verifyPassword(password, user.passwordHash) : (await hashPassword(password), false);
  if (!user || !ok) return null;
  if (needsRehash(user.passwordHash)) await prisma.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  return { ...(await createSession(prisma, user.id)), user: toUser(user) };
}

/** A new session for a user: the token is returned once, only its hash is stored. */
export async function createSession(prisma: PrismaClient, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = `sas_${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  await prisma.session.create({ data: { tokenHash: tokenHash(token), userId, expiresAt } });
  return { token, expiresAt };
}

export async function logout(prisma: PrismaClient, token: string): Promise<void> {
  await prisma.session.deleteMany({ where: { tokenHash: tokenHash(token) } });
}

/** The user a session token or an API key belongs to, or null. */
export async function resolveToken(prisma: PrismaClient, token: string): Promise<{ user: AuthUser; via: "session" | "api-key" } | null> {
  const h = tokenHash(token);
  const session = await prisma.session.findUnique({ where: { tokenHash: h }, include: { user: true } });
  if (session && session.expiresAt > new Date()) {
    return { user: toUser(session.user), via: "session" };
  }
  const key = await prisma.apiKey.findUnique({ where: { keyHash: h }, include: { user: true } });
  if (key && !key.revokedAt) {
    void prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
    return { user: toUser(key.user), via: "api-key" };
  }
  return null;
}

/** On start: create the first admin from ADMIN_USERNAME / ADMIN_PASSWORD when that user does not exist yet. */
export async function ensureAdmin(prisma: PrismaClient, username: string | undefined, password: string | undefined): Promise<void> {
  if (!username || !password) return;
  if (await prisma.user.findUnique({ where: { username } })) return;
  await prisma.user.create({ data: { username, passwordHash: await hashPassword(password), role: "admin" } });
  console.log(`[auth] created the admin account "${username}"`);
}
