import type { EnvScope, EnvStore, EnvValueRecord, FileRecordRow, FileStore, VisibleEnv } from "@/server/runtime/ports";
import type { FileStorage } from "@/server/spec";
import { databaseFileStorage } from "../file-storage/database-file-storage";
import type { Db } from "../client";
import type { EnvValue, ThreadFile } from "../generated/prisma/client";
import { parseOptionalJsonColumn, toNullableJsonColumn } from "../json";
import { objectSchema } from "./row-schemas";

export const toEnvRecord = (r: EnvValue): EnvValueRecord => ({
  scope: r.scope as EnvScope,
  ownerKey: r.ownerKey,
  name: r.name,
  type: r.type as "text" | "secret",
  value: r.value,
  updatedAt: r.updatedAt,
});

/**
 * Names and paths are ordered here, by code unit, rather than by the database: SQLite compares bytes while a
 * PostgreSQL database orders text by its collation (en_US puts "a-b" after "ab"), and both must list the same way.
 */
export const byCodeUnit = <T>(key: (row: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** The rows a thread sees, grouped by scope, each group sorted by name. */
export function visibleEnv(rows: EnvValue[], threadId: string, userId: string | null): VisibleEnv {
  const out: VisibleEnv = { thread: [], user: [], instance: [] };
  for (const r of rows.sort(byCodeUnit((row) => row.name))) {
    if (r.scope === "thread" && r.ownerKey === threadId) out.thread.push(toEnvRecord(r));
    else if (r.scope === "user" && userId && r.ownerKey === userId) out.user.push(toEnvRecord(r));
    else if (r.scope === "instance" && r.ownerKey === "instance") out.instance.push(toEnvRecord(r));
  }
  return out;
}

export function envStore(db: Db): EnvStore {
  return {
    async list(scope, ownerKey) {
      const rows = await db.envValue.findMany({ where: { scope, ownerKey } });
      return rows.sort(byCodeUnit((r) => r.name)).map(toEnvRecord);
    },
    async visible(threadId, userId) {
      const rows = await db.envValue.findMany({
        where: {
          OR: [
            { scope: "thread", ownerKey: threadId },
            ...(userId ? [{ scope: "user", ownerKey: userId }] : []),
            { scope: "instance", ownerKey: "instance" },
          ],
        },
      });
      return visibleEnv(rows, threadId, userId);
    },
    async set(scope, ownerKey, name, type, value) {
      await db.envValue.upsert({
        where: { scope_ownerKey_name: { scope, ownerKey, name } },
        create: { scope, ownerKey, name, type, value },
        update: { type, value },
      });
    },
    async delete(scope, ownerKey, name) {
      return (await db.envValue.deleteMany({ where: { scope, ownerKey, name } })).count > 0;
    },
  };
}

export function toFileRow(r: Omit<ThreadFile, "data">): FileRecordRow {
  return {
    threadId: r.threadId,
    path: r.path,
    isDirectory: r.isDirectory,
    mimeType: r.mimeType,
    size: r.size,
    sourceThreadId: r.sourceThreadId,
    sourcePath: r.sourcePath,
    metadata: parseOptionalJsonColumn(objectSchema, r.metadata, { model: "ThreadFile", field: "metadata", id: r.id }),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

const meta = { id: true, threadId: true, path: true, isDirectory: true, mimeType: true, size: true, sourceThreadId: true, sourcePath: true, metadata: true, createdAt: true, updatedAt: true } as const;

/**
 * Where a file store puts the bytes of the files it writes: in the database (the default) or in the `disk` storage.
 * Both storages are read whenever a disk storage is configured (the one written to first), so files written before a
 * switch from one mode to the other stay readable, and copies between threads work whichever storage holds the source.
 */
export interface FileStorageConfig {
  mode: "database" | "disk";
  disk: FileStorage | null;
}

const inDatabase: FileStorageConfig = { mode: "database", disk: null };

/**
 * A thread's files, keyed by normalised path: each file's record (path, size, MIME type, metadata, provenance) in the
 * database, its bytes in a `FileStorage` (see `FileStorageConfig`).
 */
export function fileStore(db: Db, storage: FileStorageConfig = inDatabase): FileStore {
  const database = databaseFileStorage(db);
  const disk = storage.disk;
  const writeTo = storage.mode === "disk" && disk ? disk : database;
  const readers = disk ? (writeTo === disk ? [disk, database] : [database, disk]) : [database];
  const isFile = async (threadId: string, path: string) =>
    (await db.threadFile.findUnique({ where: { threadId_path: { threadId, path } }, select: { isDirectory: true } }))?.isDirectory === false;
  return {
    async write(threadId, path, data, o) {
      // On disk the bytes are in place before the row that points at them. In the database they are written with the
      // row, in the same statement (the database storage's own column), so no reader or crash sees a row without them.
      if (writeTo === disk) await disk.write(threadId, path, data);
      const fields = {
        isDirectory: false,
        mimeType: o.mimeType ?? null,
        size: data.byteLength,
        data: writeTo === database ? (Buffer.from(data.buffer, data.byteOffset, data.byteLength) as unknown as Uint8Array<ArrayBuffer>) : null,
        sourceThreadId: o.sourceThreadId ?? null,
        sourcePath: o.sourcePath ?? null,
        metadata: toNullableJsonColumn(o.metadata, { model: "ThreadFile", field: "metadata" }),
      };
      const row = await db.threadFile.upsert({
        where: { threadId_path: { threadId, path } },
        create: { threadId, path, ...fields },
        update: fields,
        select: meta,
      });
      return toFileRow(row);
    },
    async read(threadId, path) {
      if (!(await isFile(threadId, path))) return null;
      for (const s of readers) {
        const bytes = await s.read(threadId, path);
        if (bytes) return bytes;
      }
      return null;
    },
    async readStream(threadId, path, chunkSize) {
      if (!(await isFile(threadId, path))) return null;
      for (const s of readers) {
        const chunks = await s.readStream(threadId, path, chunkSize);
        if (chunks) return chunks;
      }
      return null;
    },
    async stat(threadId, path) {
      const row = await db.threadFile.findUnique({ where: { threadId_path: { threadId, path } }, select: meta });
      return row ? toFileRow(row) : null;
    },
    async list(threadId, prefix) {
      const rows = await db.threadFile.findMany({
        where: { threadId, ...(prefix === "/" ? {} : { path: { startsWith: prefix } }) },
        select: meta,
      });
      // SQLite's LIKE (behind startsWith) ignores ASCII case; paths are case-sensitive on both databases.
      return rows
        .filter((r) => prefix === "/" || r.path.startsWith(prefix))
        .sort(byCodeUnit((r) => r.path))
        .map(toFileRow);
    },
    async mkdir(threadId, path) {
      const row = await db.threadFile.upsert({
        where: { threadId_path: { threadId, path } },
        create: { threadId, path, isDirectory: true, size: 0 },
        update: {},
        select: meta,
      });
      return toFileRow(row);
    },
    async delete(threadId, path) {
      const existed = (await db.threadFile.deleteMany({ where: { threadId, path } })).count > 0;
      if (existed && disk) await disk.delete(threadId, path);
      return existed;
    },
  };
}
