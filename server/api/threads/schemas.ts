import { z } from "zod";

/** `POST /api/threads` body. */
export const createThreadBody = z.object({
  agent_id: z.string().min(1, "agent_id is required"),
  env: z.record(z.string(), z.string()).optional(),
  env_types: z.record(z.string(), z.enum(["text", "secret"])).optional(),
  tags: z.array(z.string().min(1).max(200)).max(100).optional(),
  initial_messages: z
    .array(
      z.object({
        role: z.enum(["system", "user", "assistant"]),
        content: z.string(),
        silent: z.boolean().optional(),
        metadata: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .max(10_000)
    .optional(),
});

/** `POST /api/threads/:id/messages` body. */
export const postMessageBody = z.object({
  content: z.string().max(1_000_000),
  role: z.enum(["user", "assistant"]).optional(),
  attachments: z
    .array(
      z.union([
        z.string().min(1),
        z.object({ name: z.string().min(1), mimeType: z.string().min(1), data: z.string() }),
        z.object({ path: z.string().min(1) }).passthrough(),
      ]),
    )
    .max(50)
    .optional(),
  silent: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const intParam = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(0).max(max));

export const listThreadsQuery = z.object({
  agent_id: z.string().optional(),
  parent_id: z.string().optional(),
  status: z.enum(["running", "idle", "terminated"]).optional(),
  search: z.string().optional(),
  limit: intParam(500).optional(),
  offset: intParam(10_000_000).optional(),
});

export const listMessagesQuery = z.object({
  includeSilent: z.enum(["true", "false", "1", "0"]).optional(),
  limit: intParam(10_000).optional(),
  offset: intParam(10_000_000).optional(),
  order: z.enum(["asc", "desc"]).optional(),
  after_seq: intParam(Number.MAX_SAFE_INTEGER).optional(),
});

/** Parse URLSearchParams with a schema; errors become 400 with the field path. */
export function parseQuery<T extends z.ZodType>(schema: T, params: URLSearchParams): z.output<T> {
  return schema.parse(Object.fromEntries(params.entries()));
}
