import type { PrismaClient } from "../client";

/** The account a session or an API key belongs to. */
export interface CredentialOwner {
  id: string;
  username: string;
  role: string;
  deactivatedAt: Date | null;
}

const owner = { select: { id: true, username: true, role: true, deactivatedAt: true } } as const;

/** Sign-in sessions: only the hash of a session token is stored. */
export function sessionQueries(prisma: PrismaClient) {
  return {
    async create(data: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
      await prisma.session.create({ data });
    },
    /** The session with this token hash and its user, or null. */
    byTokenHash(tokenHash: string): Promise<{ expiresAt: Date; user: CredentialOwner } | null> {
      return prisma.session.findUnique({ where: { tokenHash }, select: { expiresAt: true, user: owner } });
    },
    async removeByTokenHash(tokenHash: string): Promise<void> {
      await prisma.session.deleteMany({ where: { tokenHash } });
    },
    /** Sign a user out everywhere (password reset, deactivation). */
    async removeForUser(userId: string): Promise<void> {
      await prisma.session.deleteMany({ where: { userId } });
    },
  };
}
