/**
 * The message a `message.created` / `message.updated` event carries, as the runtime emits it (`toSpecMessage`): a
 * stored message in the spec's snake_case shape. The event log keeps it as an open JSON record; the browser reads it
 * through this schema to get a typed message. It differs from the spec's `messageSchema` where the runtime does:
 * attachments are the stored file records (path and name, the MIME type and size when known), not full attachment
 * refs. Fields the spec's `Message` leaves optional stay optional (the subagent projections too, which the runtime
 * does not set today), so the messages the API serves (typed by the spec) fit it; no length or range checks, so a
 * message the runtime stored is never rejected here.
 */
import { z } from "zod";
import { MESSAGE_ROLES, MESSAGE_STATUSES, subagentProjectionShape } from "@/server/spec";

const optionalString = z.string().nullable().optional();

/** A file attached to a stored message. */
export const eventAttachmentSchema = z.object({
  path: z.string(),
  name: z.string(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
});
export type EventAttachment = z.infer<typeof eventAttachmentSchema>;

export const eventMessageSchema = z.object({
  id: z.string(),
  thread_id: z.string().optional(),
  role: z.enum(MESSAGE_ROLES),
  content: z.string().nullable(),
  name: optionalString,
  tool_calls: z
    .array(z.object({ id: z.string(), type: z.literal("function"), function: z.object({ name: z.string(), arguments: z.string() }) }))
    .nullable()
    .optional(),
  tool_call_id: optionalString,
  tool_status: z.enum(["success", "error"]).nullable().optional(),
  /** `completed`, or `failed` for a failed tool call (text still being generated exists only as stream events). */
  status: z.enum(MESSAGE_STATUSES).optional(),
  reasoning_content: optionalString,
  attachments: z.array(eventAttachmentSchema).optional(),
  silent: z.boolean().optional(),
  depth: z.number().optional(),
  /** Microseconds since the epoch. */
  created_at: z.number(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  /** The child thread the message relates to (a subagent's report), and the spec's other subagent projections. */
  ...subagentProjectionShape,
});
export type EventMessage = z.infer<typeof eventMessageSchema>;
