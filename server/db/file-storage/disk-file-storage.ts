import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { FileStorage } from "@/server/spec";

/**
 * Thread file bytes in a folder on disk: `<root>/<threadId>/<path>`. Paths reach here normalised (absolute, no `..`),
 * and are checked again, so nothing is written outside the thread's folder. A write goes to a temporary file renamed
 * into place, so a reader never sees half a file.
 */
export function diskFileStorage(root: string): FileStorage {
  const base = path.resolve(root);
  const locate = (threadId: string, filePath: string) => {
    const threadDir = path.join(base, threadId);
    const abs = path.join(threadDir, filePath);
    if (!/^[A-Za-z0-9_-]+$/.test(threadId) || !abs.startsWith(`${threadDir}${path.sep}`)) {
      throw new Error(`File path ${filePath} of thread ${threadId} leaves the thread's storage folder`);
    }
    return abs;
  };
  const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "EISDIR";
  return {
    kind: "disk",
    async write(threadId, filePath, data) {
      const abs = locate(threadId, filePath);
      await fs.mkdir(path.dirname(abs), { recursive: true });
      const tmp = `${abs}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(tmp, data);
      await fs.rename(tmp, abs);
    },
    async read(threadId, filePath) {
      try {
        return new Uint8Array(await fs.readFile(locate(threadId, filePath)));
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async readStream(threadId, filePath, chunkSize) {
      const abs = locate(threadId, filePath);
      const st = await fs.stat(abs).catch((err: unknown) => (missing(err) ? null : Promise.reject(err)));
      if (!st?.isFile()) return null;
      return (async function* () {
        for await (const chunk of createReadStream(abs, { highWaterMark: chunkSize })) yield new Uint8Array(chunk as Buffer);
      })();
    },
    async delete(threadId, filePath) {
      await fs.rm(locate(threadId, filePath), { force: true });
    },
  };
}
