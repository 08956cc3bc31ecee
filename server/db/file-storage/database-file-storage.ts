import type { FileStorage } from "@/server/spec";
import type { Db } from "../client";

/** Chunks of at most `size` bytes of `bytes`. */
async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < Math.max(1, bytes.byteLength); i += size) yield bytes.subarray(i, i + size);
}

/**
 * Thread file bytes in the database, in the `data` column of the file's own row (the default). The file store writes
 * a new file's bytes with its row in one statement; this storage reads, replaces and clears the bytes of a row.
 */
export function databaseFileStorage(db: Db): FileStorage {
  const read = async (threadId: string, path: string) => {
    const row = await db.threadFile.findUnique({ where: { threadId_path: { threadId, path } }, select: { data: true } });
    return row?.data ? new Uint8Array(row.data) : null;
  };
  return {
    kind: "database",
    async write(threadId, path, data) {
      const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength) as unknown as Uint8Array<ArrayBuffer>;
      await db.threadFile.updateMany({ where: { threadId, path }, data: { data: bytes } });
    },
    read,
    async readStream(threadId, path, chunkSize) {
      const bytes = await read(threadId, path);
      return bytes ? chunksOf(bytes, chunkSize) : null;
    },
    async delete(threadId, path) {
      await db.threadFile.updateMany({ where: { threadId, path }, data: { data: null } });
    },
  };
}
