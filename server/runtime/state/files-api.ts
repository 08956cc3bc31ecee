import type { FileChunk, FileRecord, ThreadState } from "@/server/spec";
import { RuntimeError } from "../errors";
import { baseName, folderPrefix, guessMimeType, normalizePath } from "../files/paths";
import type { FileRecordRow } from "../ports";
import { createThumbnail } from "../files/thumbnail";
import type { StateScope } from "../kernel/deps";

export const toFileRecord = (r: FileRecordRow): FileRecord => ({
  path: r.path,
  name: baseName(r.path),
  type: r.isDirectory ? "directory" : "file",
  mimeType: r.mimeType,
  size: r.size,
  createdAt: r.createdAt.getTime() * 1000,
  updatedAt: r.updatedAt.getTime() * 1000,
  ...(r.metadata ? { metadata: r.metadata } : {}),
});

const isText = (r: FileRecordRow) =>
  !r.isDirectory && (/^text\/|json|xml|javascript|yaml|csv|markdown/.test(r.mimeType ?? "") || /\.(txt|md|json|csv|ya?ml|xml|html?|js|ts|log)$/i.test(r.path));

/** The bytes `read` resolves to, in chunks of `size` (one empty chunk for an empty file); null when absent. */
async function inChunks(read: Promise<Uint8Array | null>, size: number): Promise<Iterable<Uint8Array> | null> {
  const bytes = await read;
  if (!bytes) return null;
  const out: Uint8Array[] = [];
  for (let i = 0; i < Math.max(1, bytes.byteLength); i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** Glob to RegExp: `**` any depth, `*` within a segment, `?` one character. Patterns without `/` match the file name. */
export function globToRegExp(pattern: string): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      re += ".*";
      i++;
      if (pattern[i + 1] === "/") i++;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/** The thread filesystem members of `ThreadState` (paths normalised and confined: `..` is refused). */
export function filesApi(scope: StateScope): Pick<
  ThreadState,
  "writeFile" | "readFile" | "readFileStream" | "statFile" | "readdirFile" | "unlinkFile" | "mkdirFile" | "rmdirFile" | "getFileStats" | "grepFiles" | "findFiles" | "getFileThumbnail"
> {
  const p = scope.deps.persistence;
  const id = scope.thread.id;
  return {
    async writeFile(path, data, mimeType, o = {}) {
      const norm = normalizePath(path);
      if (o.noOverwrite && (await p.files.stat(id, norm))) throw new RuntimeError("CONFLICT", `File ${norm} already exists`);
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data);
      const meta = { ...(o.metadata ?? {}), ...(o.width ? { width: o.width } : {}), ...(o.height ? { height: o.height } : {}) };
      const row = await p.files.write(id, norm, bytes, { mimeType: mimeType || guessMimeType(norm), metadata: Object.keys(meta).length ? meta : null });
      return toFileRecord(row);
    },
    async readFile(path) {
      const bytes = await p.files.read(id, normalizePath(path));
      return bytes ? (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer) : null;
    },
    async readFileStream(path, o = {}) {
      const norm = normalizePath(path);
      const size = Math.max(1, o.chunkSize ?? 64 * 1024);
      const row = await p.files.stat(id, norm);
      if (!row || row.isDirectory) return null;
      // From storage as the chunks are consumed (a file on disk is never read whole), else chunked from one read.
      const source = p.files.readStream ? await p.files.readStream(id, norm, size) : await inChunks(p.files.read(id, norm), size);
      if (!source) return null;
      const total = Math.max(1, Math.ceil(row.size / size));
      return (async function* (): AsyncGenerator<FileChunk> {
        let index = 0;
        for await (const data of source) {
          if (o.signal?.aborted) return;
          yield { data, index, totalChunks: total, isLast: index === total - 1 };
          index++;
        }
      })();
    },
    async statFile(path) {
      const norm = normalizePath(path);
      const r = await p.files.stat(id, norm);
      if (r) return toFileRecord(r);
      const below = norm === "/" ? [] : await p.files.list(id, `${norm}/`);
      return below.length > 0 ? toFileRecord({ ...below[0]!, path: norm, isDirectory: true, size: 0, mimeType: null, metadata: null }) : null;
    },
    async readdirFile(path) {
      const prefix = folderPrefix(path);
      const entries = new Map<string, FileRecord>();
      for (const r of await p.files.list(id, prefix)) {
        const rest = r.path.slice(prefix.length);
        const slash = rest.indexOf("/");
        if (slash < 0) entries.set(r.path, toFileRecord(r));
        else {
          const dir = `${prefix}${rest.slice(0, slash)}`;
          if (!entries.has(dir)) entries.set(dir, toFileRecord({ ...r, path: dir, isDirectory: true, size: 0, mimeType: null, metadata: null }));
        }
      }
      return { entries: [...entries.values()] };
    },
    async unlinkFile(path) {
      await p.files.delete(id, normalizePath(path));
    },
    async mkdirFile(path) {
      return toFileRecord(await p.files.mkdir(id, normalizePath(path)));
    },
    async rmdirFile(path) {
      const norm = normalizePath(path);
      if ((await p.files.list(id, folderPrefix(norm))).length > 0) throw new RuntimeError("CONFLICT", `Folder ${norm} is not empty`);
      await p.files.delete(id, norm);
    },
    async getFileStats() {
      const rows = await p.files.list(id, "/");
      return {
        fileCount: rows.filter((r) => !r.isDirectory).length,
        directoryCount: rows.filter((r) => r.isDirectory).length,
        totalSize: rows.reduce((s, r) => s + r.size, 0),
      };
    },
    async grepFiles(pattern) {
      const re = new RegExp(pattern);
      const out = [];
      for (const r of (await p.files.list(id, "/")).filter(isText)) {
        const bytes = await p.files.read(id, r.path);
        if (!bytes) continue;
        const lines = new TextDecoder().decode(bytes).split("\n");
        const matches = lines.flatMap((content, i) => (re.test(content) ? [{ line: i + 1, content }] : []));
        if (matches.length > 0) out.push({ path: r.path, matches });
      }
      return out;
    },
    async findFiles(pattern) {
      const re = globToRegExp(pattern.startsWith("/") ? pattern : pattern.includes("/") ? `/${pattern}` : `**/${pattern}`);
      const files = (await p.files.list(id, "/")).filter((r) => !r.isDirectory && re.test(r.path)).map(toFileRecord);
      return { files, total: files.length };
    },
    async getFileThumbnail(path) {
      const norm = normalizePath(path);
      const r = await p.files.stat(id, norm);
      if (!r || !(r.mimeType ?? "").startsWith("image/")) return null;
      const bytes = await p.files.read(id, norm);
      return bytes ? createThumbnail(bytes) : null;
    },
  };
}
