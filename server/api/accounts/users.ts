import { z } from "zod";
import type { Queries } from "@/server/db/queries/create-queries";
import type { UserRow } from "@/server/db/queries/users";
import { ApiError } from "../errors";
import { forgetUserCount } from "../auth/guard";
import { hashPassword } from "../auth/passwords";
import { revokeCredentials } from "../auth/sessions";
import { newPassword } from "../auth/password-policy";

/** User administration (admin only; the callers check the role). Usernames are case-insensitive (stored lower-cased). */
const username = z
  .string()
  .trim()
  .min(1, "a username is required")
  .max(100)
  .regex(/^[A-Za-z0-9_.@-]+$/, "letters, digits, _ . @ - only")
  .transform((s) => s.toLowerCase());
const password = newPassword;
const role = z.enum(["admin", "user"]);

export const createUserBody = z.object({ username, password, role: role.default("user") });
export const updateUserBody = z.object({ role: role.optional(), password: password.optional(), active: z.boolean().optional() });
export const setupBody = z.object({ username, password, setup_token: z.string().max(200).optional() });

export interface UserView {
  id: string;
  username: string;
  role: "admin" | "user";
  /** False while deactivated: the account cannot sign in. */
  active: boolean;
  /** Signs in through the identity provider (OpenID Connect). */
  sso: boolean;
  created_at: string;
}

const view = (u: UserRow): UserView => ({
  id: u.id,
  username: u.username,
  role: u.role === "admin" ? "admin" : "user",
  active: !u.deactivatedAt,
  sso: u.oidcSubject !== null,
  created_at: u.createdAt.toISOString(),
});

export async function listUsers(db: Queries): Promise<UserView[]> {
  return (await db.users.list()).map(view);
}

/** Add an account. The first account of an instance is always an administrator, so no instance is left without one. */
export async function createUser(db: Queries, input: z.output<typeof createUserBody>): Promise<UserView> {
  if (await db.users.byUsername(input.username)) {
    throw new ApiError(409, "CONFLICT", `The username "${input.username}" is taken`, [{ path: "username", message: "taken" }]);
  }
  const role = (await db.users.count()) === 0 ? "admin" : input.role;
  const row = await db.users.create({ username: input.username, role, passwordHash: await hashPassword(input.password) });
  forgetUserCount(db);
  return view(row);
}

/**
 * Change a user's role, reset their password, deactivate or reactivate them. A reset or a deactivation signs the user
 * out everywhere and revokes their API keys. The last active admin stays an active admin; nobody deactivates
 * themselves.
 */
export async function updateUser(db: Queries, id: string, input: z.output<typeof updateUserBody>, callerId: string | null = null): Promise<UserView> {
  const user = await db.users.byId(id);
  if (!user) throw new ApiError(404, "NOT_FOUND", `User ${id} not found`);
  const lastAdmin = user.role === "admin" && !user.deactivatedAt && (await db.users.otherAdmins(id)) === 0;
  if (input.role === "user" && lastAdmin) throw new ApiError(409, "CONFLICT", "The last administrator cannot be made a plain user");
  if (input.active === false && id === callerId) throw new ApiError(409, "CONFLICT", "You cannot deactivate your own account");
  if (input.active === false && lastAdmin) throw new ApiError(409, "CONFLICT", "The last administrator cannot be deactivated");
  const row = await db.users.update(id, {
    ...(input.role ? { role: input.role } : {}),
    ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
    ...(input.active === undefined ? {} : { deactivatedAt: input.active ? null : (user.deactivatedAt ?? new Date()) }),
  });
  if (input.password || input.active === false) await revokeCredentials(db, id);
  return view(row);
}

/** Remove a user with their sessions, keys, threads and variables. Nobody removes themselves or the last admin. */
export async function deleteUser(db: Queries, id: string, callerId: string | null): Promise<void> {
  const user = await db.users.byId(id);
  if (!user) throw new ApiError(404, "NOT_FOUND", `User ${id} not found`);
  if (id === callerId) throw new ApiError(409, "CONFLICT", "You cannot remove your own account");
  if (user.role === "admin" && (await db.users.otherAdmins(id)) === 0) throw new ApiError(409, "CONFLICT", "The last administrator cannot be removed");
  await db.users.remove(id);
  forgetUserCount(db);
}

/** First-run setup: the first account, an admin. Refused (409) once any account exists. */
export async function setupFirstAdmin(db: Queries, input: z.output<typeof setupBody>): Promise<UserView> {
  if ((await db.users.count()) > 0) throw new ApiError(409, "CONFLICT", "Setup is done: an account already exists. Sign in instead.");
  const row = await db.users.create({ username: input.username, role: "admin", passwordHash: await hashPassword(input.password) });
  forgetUserCount(db);
  return view(row);
}
