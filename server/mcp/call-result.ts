import type { McpCallResult, McpContent } from "@/server/runtime/ports";

/** The SDK's `callTool` answer as the runtime's port shape (unknown content kinds are kept as text). */
export function toCallResult(raw: unknown): McpCallResult {
  const r = (raw ?? {}) as { content?: unknown[]; isError?: boolean; structuredContent?: Record<string, unknown>; toolResult?: unknown };
  const content: McpContent[] = [];
  for (const c of r.content ?? []) {
    const block = c as { type?: string } & Record<string, unknown>;
    if (block.type === "text" || block.type === "image" || block.type === "audio" || block.type === "resource" || block.type === "resource_link")
      content.push(block as unknown as McpContent);
    else content.push({ type: "text", text: JSON.stringify(block) });
  }
  // Servers of the 2024-10-07 protocol answer with `toolResult` instead of `content`.
  if (r.content === undefined && r.toolResult !== undefined) content.push({ type: "text", text: JSON.stringify(r.toolResult) });
  return { content, isError: r.isError === true, ...(r.structuredContent ? { structuredContent: r.structuredContent } : {}) };
}
