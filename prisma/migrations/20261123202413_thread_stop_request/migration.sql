-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "stopRequestedAt" BIGINT;
