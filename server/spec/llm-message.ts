import type { ToolCall } from "./message";

/** A content part of a user message sent to the model. */
export type LlmContentPart =
  { type: "text"; text: string } | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } };

/** A message as sent to the model (OpenAI Chat Completions shape), seen by `prefilter_llm_history` hooks. */
export type LlmMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | LlmContentPart[]; name?: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[]; reasoning_content?: string }
  | { role: "tool"; content: string; tool_call_id: string };
