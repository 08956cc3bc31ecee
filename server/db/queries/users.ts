import { envCacheOf } from "../cached-env";
import { databaseKindOf, type PrismaClient } from "../client";
import { ENV_CHANNEL } from "../env-cache";

/** An account as the API reads it (the password hash is only for sign-in checks). */
export interface UserRow {
  id: string;
  username: string;
  passwordHash: string;
  role: string;
  deactivatedAt: Date | null;
  oidcSubject: string | null;
  createdAt: Date;
}

const columns = { id: true, username: true, passwordHash: true, role: true, deactivatedAt: true, oidcSubject: true, createdAt: true } as const;

/**
 * Usernames are compared case-insensitively: they are stored lower-cased, and every lookup lower-cases its argument
 * (`ADMIN` and `admin` are one account).
 */
export const canonicalUsername = (username: string) => username.trim().toLowerCase();

/** The accounts table: reads and writes of user administration, sign-in and first-run setup. */
export function userQueries(prisma: PrismaClient) {
  return {
    /** Every account, oldest first. */
    list(): Promise<UserRow[]> {
      return prisma.user.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: columns });
    },
    byId(id: string): Promise<UserRow | null> {
      return prisma.user.findUnique({ where: { id }, select: columns });
    },
    byUsername(username: string): Promise<UserRow | null> {
      return prisma.user.findUnique({ where: { username: canonicalUsername(username) }, select: columns });
    },
    count(): Promise<number> {
      return prisma.user.count();
    },
    /** The account linked to an OpenID Connect identity (`<issuer>#<sub>`), or null. */
    byOidcSubject(oidcSubject: string): Promise<UserRow | null> {
      return prisma.user.findUnique({ where: { oidcSubject }, select: columns });
    },
    /** Active administrators other than `id` (the last one may not be demoted, deactivated or removed). */
    otherAdmins(id: string): Promise<number> {
      return prisma.user.count({ where: { role: "admin", deactivatedAt: null, id: { not: id } } });
    },
    create(data: { username: string; role: string; passwordHash: string; oidcSubject?: string }): Promise<UserRow> {
      return prisma.user.create({ data: { ...data, username: canonicalUsername(data.username) }, select: columns });
    },
    update(id: string, data: { role?: string; passwordHash?: string; deactivatedAt?: Date | null }): Promise<UserRow> {
      return prisma.user.update({ where: { id }, data, select: columns });
    },
    /** Remove an account with its variables (sessions, keys and threads go by cascade). */
    async remove(id: string): Promise<void> {
      await prisma.$transaction([
        prisma.envValue.deleteMany({ where: { scope: "user", ownerKey: id } }),
        prisma.user.delete({ where: { id } }),
        // PostgreSQL: the other processes' cached reads too (see env-cache.ts).
        ...(databaseKindOf(prisma) === "postgresql" ? [prisma.$executeRaw`SELECT 1 FROM (SELECT pg_notify(${ENV_CHANNEL}, '')) AS n`] : []),
      ]);
      // Env values written past the stores: the runtime's cached reads of them are stale.
      envCacheOf(prisma).invalidate();
    },
  };
}
