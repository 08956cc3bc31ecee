import { z } from "zod";
import { attachmentInputSchema, attachmentRefSchema } from "./attachment";
import { jsonObjectSchema } from "./json";

/** Message roles. Stored roles are authorship: `assistant` = side A, `user` = side B or the human. */
export const MESSAGE_ROLES = ["system", "user", "assistant", "tool"] as const;
/** Message role. */
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** Lifecycle status of a message. */
export const MESSAGE_STATUSES = ["pending", "completed", "failed"] as const;
/** Message status. */
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A tool call in the OpenAI Chat Completions shape; `arguments` is a JSON string. */
export const toolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal("function"),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});
/** A tool call made by the model. */
export type ToolCall = z.output<typeof toolCallSchema>;

const nullableString = z.string().nullable().optional();

/** Subagent projections of a message (from the child registry, when the message relates to a subagent). */
export const subagentProjectionShape = {
  /** Subagent reference (child thread id) associated with this message. */
  subagent_id: nullableString,
  subagent_name: nullableString,
  subagent_title: nullableString,
  subagent_description: nullableString,
  subagent_status: nullableString,
  subagent_resumable: z.boolean().nullable().optional(),
  subagent_blocking: z.boolean().nullable().optional(),
  subagent_thread_name: nullableString,
  subagent_spawn_group_id: nullableString,
};

/** A stored message in the spec's `Message` shape (snake_case, timestamps in microseconds). */
export const messageSchema = z.object({
  id: z.string().min(1),
  thread_id: z.string().optional(),
  role: z.enum(MESSAGE_ROLES),
  content: z.string().nullable(),
  /** Tool name on `tool` messages, or a participant name. */
  name: nullableString,
  tool_calls: z.array(toolCallSchema).nullable().optional(),
  tool_call_id: nullableString,
  tool_status: z.enum(["success", "error"]).nullable().optional(),
  reasoning_content: nullableString,
  attachments: z.array(attachmentRefSchema).optional(),
  /** Hidden from normal UI display (e.g. subagent notifications). */
  silent: z.boolean().optional(),
  /** Nesting depth: 0 for the thread's own messages, >0 for subprompt internals. */
  depth: z.number().int().nonnegative().optional(),
  /** Parent message id for nested (subprompt) messages. */
  parent_id: nullableString,
  /** Creation time in microseconds since the epoch. */
  created_at: z.number().int().nonnegative(),
  /** `completed` once stored; `failed` for a tool message whose call failed; `pending` while still being produced. */
  status: z.enum(MESSAGE_STATUSES).optional(),
  /** Custom metadata (e.g. `subagent_id`, `status_kind`). */
  metadata: jsonObjectSchema.nullable().optional(),
  ...subagentProjectionShape,
});
/** A stored message. */
export type Message = z.output<typeof messageSchema>;

/** Input of `state.queueMessage`: delivered in FIFO order before the next step, or starts a turn when idle. */
export const queueMessageInputSchema = z.object({
  role: z.enum(["user", "assistant"], { error: "role must be 'user' or 'assistant'" }),
  content: z.string(),
  attachments: z.array(attachmentInputSchema).optional(),
  silent: z.boolean().optional(),
  metadata: jsonObjectSchema.optional(),
});
/** Input for queueing a message. */
export type QueueMessageInput = z.output<typeof queueMessageInputSchema>;

/** Input of `state.injectMessage`: stored at once in the thread's history. */
export const injectMessageInputSchema = z.object({
  role: z.enum(MESSAGE_ROLES),
  content: z.string().nullable(),
  name: z.string().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  tool_status: z.enum(["success", "error"]).optional(),
  attachments: z.array(attachmentInputSchema).optional(),
  silent: z.boolean().optional(),
  metadata: jsonObjectSchema.optional(),
});
/** Input for injecting a message. */
export type InjectMessageInput = z.output<typeof injectMessageInputSchema>;

/** Changes accepted by `state.updateMessage`. */
export const messageUpdatesSchema = z.object({
  content: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  tool_status: z.enum(["success", "error"]).nullable().optional(),
  reasoning_content: z.string().nullable().optional(),
  attachments: z.array(attachmentRefSchema).optional(),
  silent: z.boolean().optional(),
  metadata: jsonObjectSchema.nullable().optional(),
});
/** Message changes. */
export type MessageUpdates = z.output<typeof messageUpdatesSchema>;

/** Options of `state.getMessages`. */
export const getMessagesOptionsSchema = z.object({
  limit: z.number().int().positive().optional(),
  offset: z.number().int().nonnegative().optional(),
  order: z.enum(["asc", "desc"]).optional(),
  includeSilent: z.boolean().optional(),
  /** Deepest nesting level to include (0 = only the thread's own messages). */
  maxDepth: z.number().int().nonnegative().optional(),
});
/** Options for reading messages. */
export type GetMessagesOptions = z.output<typeof getMessagesOptionsSchema>;

/** Result of `state.getMessages`. */
export interface MessagesResult {
  messages: Message[];
  /** Total matching messages (ignoring limit/offset). */
  total: number;
  /** Whether more messages exist past this page. */
  hasMore: boolean;
}
