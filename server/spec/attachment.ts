import { z } from "zod";

/**
 * A file stored in a thread's filesystem and attached to a message. `path` is thread-local, conventionally
 * `/attachments/<name>.<ext>`; copies across threads get a new destination-local path.
 */
export const attachmentRefSchema = z.object({
  /** Stable attachment id. */
  id: z.string().min(1),
  type: z.literal("file"),
  /** Thread-local path, e.g. `/attachments/photo.png`. */
  path: z.string().startsWith("/", { error: "attachment path must be absolute, e.g. '/attachments/photo.png'" }),
  /** File name shown to people. */
  name: z.string(),
  /** MIME type, e.g. `image/png`. */
  mimeType: z.string(),
  /** Size in bytes. */
  size: z.number().int().nonnegative(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  description: z.string().optional(),
});
/** Reference to a stored attachment. */
export type AttachmentRef = z.output<typeof attachmentRefSchema>;

/** A new file produced by a tool or sent with a message: base64 content to be stored in the thread. */
export const toolAttachmentSchema = z.object({
  /** File name, e.g. `chart.png`. */
  name: z.string().min(1),
  /** MIME type. */
  mimeType: z.string().min(1),
  /** File content, base64-encoded. */
  data: z.string(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  description: z.string().optional(),
});
/** A new file to store and attach. */
export type ToolAttachment = z.output<typeof toolAttachmentSchema>;

/** An attachment given as input: a thread-local path (`/attachments/a.png`), a new file, or a stored ref. */
export const attachmentInputSchema = z.union(
  [
    z.string().startsWith("/", { error: "attachment path must be absolute, e.g. '/attachments/photo.png'" }),
    toolAttachmentSchema,
    attachmentRefSchema,
  ],
  { error: "attachment must be a path ('/attachments/<name>.<ext>'), { name, mimeType, data } or a stored attachment" },
);
/** An attachment given as input. */
export type AttachmentInput = z.output<typeof attachmentInputSchema>;

/** The thread-local path of an attachment input (`undefined` for a new file that has no path yet). */
export function attachmentInputPath(attachment: AttachmentInput): string | undefined {
  if (typeof attachment === "string") return attachment;
  return "path" in attachment ? attachment.path : undefined;
}
