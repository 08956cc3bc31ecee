import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ApiKeyRow } from "@/server/db/queries/api-keys";
import type { Queries } from "@/server/db/queries/create-queries";
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

const view = (k: ApiKeyRow): ApiKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
});

export async function createApiKey(db: Queries, userId: string, name: string): Promise<{ key: string; api_key: ApiKeyView }> {
  const key = `sak_${randomBytes(32).toString("base64url")}`;
  const row = await db.apiKeys.create({ userId, name, prefix: key.slice(0, 10), keyHash: tokenHash(key) });
  return { key, api_key: view(row) };
}

/** The user's keys that are not revoked, newest first. */
export async function listApiKeys(db: Queries, userId: string): Promise<ApiKeyView[]> {
  return (await db.apiKeys.listActive(userId)).map(view);
}

/** Revoke one of the user's keys: it stops working at once. Someone else's key is 404. */
export async function revokeApiKey(db: Queries, userId: string, id: string): Promise<void> {
  if (!(await db.apiKeys.revoke(userId, id))) throw new ApiError(404, "NOT_FOUND", `API key ${id} not found`);
}
