import type { AttachmentInput } from "@/server/spec";
import type { AttachmentRecord, FileStore } from "../ports";
import { baseName, guessMimeType, normalizePath } from "./paths";

/**
 * Turn attachment inputs into stored attachment records of the thread: a path (must stay inside the thread's files),
 * a stored attachment ref, or new file data `{name, mimeType, data (base64)}` written under `/attachments/`.
 */
export async function resolveAttachments(files: FileStore, threadId: string, inputs: AttachmentInput[] | undefined): Promise<AttachmentRecord[]> {
  const out: AttachmentRecord[] = [];
  for (const a of inputs ?? []) {
    if (typeof a === "string") {
      const path = normalizePath(a);
      const st = await files.stat(threadId, path);
      out.push({ path, name: baseName(path), mimeType: st?.mimeType ?? guessMimeType(path), size: st?.size });
    } else if ("data" in a) {
      const bytes = Buffer.from(a.data, "base64");
      const path = await freePath(files, threadId, normalizePath(`/attachments/${baseName(a.name)}`));
      await files.write(threadId, path, bytes, { mimeType: a.mimeType, metadata: a.description ? { description: a.description } : null });
      out.push({ path, name: baseName(path), mimeType: a.mimeType, size: bytes.length });
    } else {
      out.push({ path: normalizePath(a.path), name: a.name, mimeType: a.mimeType, size: a.size });
    }
  }
  return out;
}

/** `/attachments/x.png`, or `/attachments/x-2.png` … when taken. */
export async function freePath(files: FileStore, threadId: string, path: string): Promise<string> {
  if (!(await files.stat(threadId, path))) return path;
  const dot = path.lastIndexOf(".");
  const stem = dot > path.lastIndexOf("/") ? path.slice(0, dot) : path;
  const ext = dot > path.lastIndexOf("/") ? path.slice(dot) : "";
  for (let i = 2; ; i++) {
    const candidate = `${stem}-${i}${ext}`;
    if (!(await files.stat(threadId, candidate))) return candidate;
  }
}
