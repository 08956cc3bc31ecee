import { randomBytes } from "node:crypto";
import { z } from "zod";
import { API_SCOPES, DEFAULT_API_SCOPES, parseScopes, type ApiScope } from "@/shared/api-scopes";
import type { Caller } from "@/shared/caller";
import type { ApiKeyRow } from "@/server/db/queries/api-keys";
import type { Queries } from "@/server/db/queries/create-queries";
import { ApiError } from "../errors";
import { tokenHash } from "../auth/sessions";

/**
 * API keys: `sak_` + 32 random bytes. Only the SHA-256 of a key is stored; the key itself is shown once. A key has
 * scopes (shared/api-scopes.ts), an optional expiry, and its last use is recorded.
 */
export const createKeyBody = z.object({
  name: z.string().trim().min(1, "a name is required").max(100),
  scopes: z
    .array(z.enum(API_SCOPES))
    .min(1, "choose at least one scope")
    .default(DEFAULT_API_SCOPES)
    .transform((s) => [...new Set(s)]),
  expires_at: z.iso
    .datetime({ offset: true, message: "an ISO date-time, e.g. 2030-01-31T00:00:00Z" })
    .nullable()
    .optional()
    .refine((v) => !v || new Date(v).getTime() > Date.now(), "must be in the future"),
});

export interface ApiKeyView {
  id: string;
  name: string;
  /** The first characters of the key, to recognise it. */
  prefix: string;
  scopes: ApiScope[];
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

const view = (k: ApiKeyRow): ApiKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: parseScopes(k.scopes),
  expires_at: k.expiresAt?.toISOString() ?? null,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
});

/** A new key for the signed-in caller; the `admin` scope only for administrators. */
export async function createApiKey(db: Queries, caller: Caller & { userId: string }, input: z.output<typeof createKeyBody>): Promise<{ key: string; api_key: ApiKeyView }> {
  if (input.scopes.includes("admin") && caller.role !== "admin") {
    throw new ApiError(403, "FORBIDDEN", "Only administrators can create a key with the admin scope", [{ path: "scopes", message: "admin is for administrators" }]);
  }
  if (input.scopes.includes("metrics") && caller.role !== "admin") {
    throw new ApiError(403, "FORBIDDEN", "Only administrators can create a key with the metrics scope", [{ path: "scopes", message: "metrics is for administrators" }]);
  }
  const key = `sak_${randomBytes(32).toString("base64url")}`;
  const row = await db.apiKeys.create({
    userId: caller.userId,
    name: input.name,
    prefix: key.slice(0, 10),
    keyHash: tokenHash(key),
    scopes: input.scopes.join(" "),
    expiresAt: input.expires_at ? new Date(input.expires_at) : null,
  });
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
