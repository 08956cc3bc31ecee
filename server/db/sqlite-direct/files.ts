import { newId } from "@/server/runtime/ids";
import type { FileStore } from "@/server/runtime/ports";
import type { ThreadFile } from "../generated/prisma/client";
import { toFileRow } from "../repositories/env-files";
import { bool, readDate, readOptionalJson, sqlDate } from "./columns";
import type { DirectSqlite } from "./connection";

/**
 * `mkdir`: the folder's row, created unless the path exists (a file or folder there is returned unchanged). Prisma runs
 * this as an `upsert` with nothing to update, a transaction of its own, which cannot open inside a runtime transaction
 * on the one SQLite connection (see transactions.ts); here it is one `INSERT … ON CONFLICT DO NOTHING`.
 */
export function directFiles(sql: DirectSqlite, base: FileStore): FileStore {
  return {
    ...base,
    async mkdir(threadId, path) {
      const now = sqlDate(new Date());
      sql.run(
        `INSERT INTO "ThreadFile" ("id", "threadId", "path", "isDirectory", "size", "createdAt", "updatedAt") VALUES (?, ?, ?, 1, 0, ?, ?) ON CONFLICT DO NOTHING`,
        newId(),
        threadId,
        path,
        now,
        now,
      );
      const r = sql.get<Record<string, unknown>>(
        `SELECT "id", "threadId", "path", "isDirectory", "mimeType", "size", "sourceThreadId", "sourcePath", "metadata", "createdAt", "updatedAt" FROM "ThreadFile" WHERE "threadId" = ? AND "path" = ?`,
        threadId,
        path,
      )!;
      return toFileRow({
        ...(r as unknown as Omit<ThreadFile, "data">),
        isDirectory: bool(r.isDirectory),
        metadata: readOptionalJson(r.metadata) as ThreadFile["metadata"],
        createdAt: readDate(r.createdAt),
        updatedAt: readDate(r.updatedAt),
      });
    },
  };
}
