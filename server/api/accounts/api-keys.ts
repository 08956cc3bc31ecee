import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "@/server/db/client";
import { ApiError } from "../errors";
import { tokenHash } from "../auth/sessions";

/** API keys: `sak_` + 32 random bytes. Only the SHA-256 of a key is stored; the key itself is shown once. */
export const createKeyBody = z.object({ name: z.string().trim().min(1, "a name is required").max(100) });

export interface ApiKeyView {
  id: string;
  name: string;
  /** The first characters of the key, to recognise it. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

const view = (k: { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null }): ApiKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
});

export async function createApiKey(prisma: PrismaClient, userId: string, name: string): Promise<{ key: string; api_key: ApiKeyView }> {
  const key = `sak_${randomBytes(32).toString("base64url")}`;
  const row = await prisma.apiKey.create({ data: { userId, name, prefix: key.slice(0, 10), keyHash: tokenHash(key) } });
  return { key, api_key: view(row) };
}

/** The user's keys that are not revoked, newest first. */
export async function listApiKeys(prisma: PrismaClient, userId: string): Promise<ApiKeyView[]> {
  const rows = await prisma.apiKey.findMany({ where: { userId, revokedAt: null }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  return rows.map(view);
}

/** Revoke one of the user's keys: it stops working at once. Someone else's key is 404. */
export async function revokeApiKey(prisma: PrismaClient, userId: string, id: string): Promise<void> {
  const { count } = await prisma.apiKey.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw new ApiError(404, "NOT_FOUND", `API key ${id} not found`);
}
