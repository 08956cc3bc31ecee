/**
 * The incoming Chat Completions request, validated loosely (the server must accept whatever a real client sends) and
 * reduced to the views the rule conditions look at.
 */
import { z } from "zod";

const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

export const chatMessageSchema = z.looseObject({
  role: z.string().min(1),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
  tool_calls: z
    .array(
      z.looseObject({
        function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  tools: z
    .array(z.looseObject({ type: z.string().optional(), function: z.looseObject({ name: z.string() }).optional() }))
    .nullish(),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean().nullish(),
});

export type ChatRequest = z.output<typeof chatRequestSchema>;
export type ChatRequestMessage = z.output<typeof chatMessageSchema>;

/** The text of a message's content: the string itself, or its text parts joined. */
export function messageText(message: ChatRequestMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  if (!content) return "";
  return content
    .map((part) => part.text ?? "")
    .filter((text) => text !== "")
    .join("\n");
}

/** Names of the function tools offered in the request. */
export function toolNames(request: ChatRequest): string[] {
  return (request.tools ?? []).flatMap((tool) => (tool.function?.name ? [tool.function.name] : []));
}

/** Joined text of the system and developer messages. */
export function systemText(request: ChatRequest): string {
  return request.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map(messageText)
    .join("\n");
}
