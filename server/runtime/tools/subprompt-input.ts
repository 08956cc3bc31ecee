import { ValidationError } from "../errors";
import { guessMimeType, normalizePath } from "../files/paths";
import type { ChatContentPart, ChatMessage } from "../llm/types";
import type { FileStore } from "../ports";

/** Text files up to this size are sent inline; larger or binary files are described by path, type and size. */
export const MAX_INLINE_TEXT_BYTES = 100_000;

const TEXT_TYPES = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|typescript|csv|x-ndjson))/;
const isImage = (mime: string) => mime.startsWith("image/") && mime !== "image/svg+xml";

export type SubpromptInput = { ok: true; message: ChatMessage | null } | { ok: false; error: string };

/**
 * The user message a subprompt starts from: the mapped text (`initUserMessageProperty`) and the files named by
 * `initAttachmentsProperty`, read from the calling thread's filesystem. Images become `image_url` parts (base64 data
 * URLs, as for chat history; with `recentImageThreshold: 0` only their path is given); text files become text parts
 * holding their content; other files (PDFs, archives, …) a text part with path, type and size, since the Chat
 * Completions mapping has no generic file part every compatible endpoint accepts. A path outside the thread's files or
 * a missing file is an error the calling model sees.
 */
export async function subpromptUserMessage(
  files: FileStore,
  threadId: string,
  text: string,
  paths: string[],
  opts: { recentImageThreshold: number },
): Promise<SubpromptInput> {
  const parts: ChatContentPart[] = text ? [{ type: "text", text }] : [];
  for (const raw of paths) {
    let path: string;
    try {
      path = normalizePath(raw);
    } catch (err) {
      return { ok: false, error: err instanceof ValidationError ? err.message : String(err) };
    }
    const stat = await files.stat(threadId, path);
    const data = stat && !stat.isDirectory ? await files.read(threadId, path) : null;
    if (!stat || !data) return { ok: false, error: `Attachment ${path} does not exist in this thread's files.` };
    const mime = stat.mimeType ?? guessMimeType(path);
    if (isImage(mime) && opts.recentImageThreshold > 0) {
      parts.push({ type: "text", text: `Attachment ${path}:` });
      parts.push({ type: "image_url", image_url: { url: `data:${mime};base64,${Buffer.from(data).toString("base64")}` }, name: path });
    } else if (TEXT_TYPES.test(mime) && data.byteLength <= MAX_INLINE_TEXT_BYTES) {
      parts.push({ type: "text", text: `Attachment ${path} (${mime}):\n${new TextDecoder().decode(data)}` });
    } else {
      parts.push({ type: "text", text: `[attachment: ${path} (${mime}, ${data.byteLength} bytes)]` });
    }
  }
  if (parts.length === 0) return { ok: true, message: null };
  const onlyText = parts.every((p) => p.type === "text");
  return {
    ok: true,
    message: { role: "user", content: onlyText ? parts.map((p) => (p as { text: string }).text).join("\n\n") : parts },
  };
}
