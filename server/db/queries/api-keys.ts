import type { PrismaClient } from "../client";
import type { CredentialOwner } from "./sessions";

/** An API key as its owner sees it (never the key or its hash). */
export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  /** Space-separated scopes. */
  scopes: string;
  expiresAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const columns = { id: true, name: true, prefix: true, scopes: true, expiresAt: true, createdAt: true, lastUsedAt: true } as const;

/** API keys: only the SHA-256 of a key is stored. */
export function apiKeyQueries(prisma: PrismaClient) {
  return {
    create(data: { userId: string; name: string; prefix: string; keyHash: string; scopes: string; expiresAt: Date | null }): Promise<ApiKeyRow> {
      return prisma.apiKey.create({ data, select: columns });
    },
    /** The user's keys that are not revoked, newest first (expired ones included, marked by their expiry). */
    listActive(userId: string): Promise<ApiKeyRow[]> {
      return prisma.apiKey.findMany({ where: { userId, revokedAt: null }, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select: columns });
    },
    /** Revoke one of the user's live keys; false when there is no such key. */
    async revoke(userId: string, id: string): Promise<boolean> {
      const { count } = await prisma.apiKey.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: new Date() } });
      return count > 0;
    },
    /** Revoke every live key of a user (password reset, deactivation); how many were revoked. */
    async revokeAllForUser(userId: string): Promise<number> {
      const { count } = await prisma.apiKey.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
      return count;
    },
    /** The key with this hash and its user, or null. */
    byKeyHash(keyHash: string): Promise<{ id: string; revokedAt: Date | null; expiresAt: Date | null; scopes: string; user: CredentialOwner } | null> {
      return prisma.apiKey.findUnique({
        where: { keyHash },
        select: { id: true, revokedAt: true, expiresAt: true, scopes: true, user: { select: { id: true, username: true, role: true, deactivatedAt: true } } },
      });
    },
    /** Note that the key was just used (best effort: a failure is ignored). */
    touch(id: string): void {
      void prisma.apiKey.update({ where: { id }, data: { lastUsedAt: new Date() } }).catch(() => {});
    },
  };
}
