-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "scopes" TEXT NOT NULL DEFAULT 'threads:read threads:write';

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "deactivatedAt" TIMESTAMP(3),
ADD COLUMN     "oidcSubject" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "User_oidcSubject_key" ON "User"("oidcSubject");

-- Keys made before scopes existed keep what they could do: an administrator's key keeps the admin scope
UPDATE "ApiKey" SET "scopes" = 'threads:read threads:write admin' WHERE "userId" IN (SELECT "id" FROM "User" WHERE "role" = 'admin');
