import type { ToolAttachment, ToolResult } from "@/server/spec";
import { redactText } from "../env/redact";
import { MCP_DEFAULT_TIMEOUT_MS, McpVariableMissingError, resolveMcpConnection, type McpEntry } from "../kernel/mcp-tools";
import { toolError, type ToolCallContext } from "../kernel/tool-call-context";
import { McpUnavailableError, type McpCallResult, type McpContent } from "../ports";

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "audio/wav": "wav",
  "audio/mpeg": "mp3",
  "application/pdf": "pdf",
  "application/json": "json",
  "text/plain": "txt",
};

function fileName(entry: McpEntry, i: number, mimeType: string, uri?: string): string {
  const fromUri = uri?.split(/[/?#]/).filter(Boolean).pop();
  if (fromUri && /\.[A-Za-z0-9]{1,8}$/.test(fromUri)) return fromUri.replace(/[^A-Za-z0-9._-]/g, "_");
  return `${entry.name}-${i + 1}.${EXTENSIONS[mimeType] ?? "bin"}`;
}

/**
 * An MCP `CallToolResult` as a tool result: text blocks (and embedded text resources) become the text the model
 * reads; images, audio and binary resources become attachments stored with the tool message; resource links are
 * listed by URI. `isError` makes it a tool error the model sees.
 */
export function mapMcpResult(entry: McpEntry, r: McpCallResult): ToolResult {
  const texts: string[] = [];
  const attachments: ToolAttachment[] = [];
  r.content.forEach((c: McpContent, i) => {
    switch (c.type) {
      case "text":
        texts.push(c.text);
        break;
      case "image":
      case "audio": {
        const name = fileName(entry, i, c.mimeType);
        attachments.push({ name, mimeType: c.mimeType, data: c.data });
        texts.push(`[${c.type} attached: /attachments/${name}]`);
        break;
      }
      case "resource": {
        const res = c.resource;
        if (res.text !== undefined) texts.push(`[resource ${res.uri}]\n${res.text}`);
        else if (res.blob !== undefined) {
          const mimeType = res.mimeType ?? "application/octet-stream";
          const name = fileName(entry, i, mimeType, res.uri);
          attachments.push({ name, mimeType, data: res.blob });
          texts.push(`[resource ${res.uri} attached: /attachments/${name}]`);
        }
        break;
      }
      case "resource_link":
        texts.push(`[resource link ${c.uri}${c.name ? ` (${c.name})` : ""}${c.description ? `: ${c.description}` : ""}]`);
        break;
    }
  });
  if (texts.length === 0 && r.structuredContent) texts.push(JSON.stringify(r.structuredContent));
  const text = texts.join("\n");
  if (r.isError) return toolError(`Tool ${entry.name} failed: ${text || "the MCP server reported an error"}`, { error_code: "mcp_tool_error" });
  return { status: "success", result: text, ...(attachments.length > 0 ? { attachments } : {}) };
}

/** `code` of the SDK's request-timeout error (JSON-RPC -32001). */
const REQUEST_TIMEOUT = -32001;

/**
 * Call a tool of an MCP server. The call is cancelled when the thread is stopped or terminated (the step's signal),
 * and fails after the server's `timeoutMs`. A server that cannot be reached, a missing variable, a timeout or a
 * transport failure become tool errors the model sees; the loop goes on.
 */
export async function runMcpTool(tc: ToolCallContext, entry: McpEntry, args: Record<string, unknown>): Promise<ToolResult> {
  const def = tc.ctx.defs.mcpServer(entry.server);
  if (!def) return toolError(`Tool ${entry.name} is not available: MCP server ${entry.server} is not defined (mcp/${entry.server}.ts), or its file has errors.`, { error_code: "mcp_unavailable" });
  const mcp = tc.deps.mcp;
  if (!mcp) return toolError(`Tool ${entry.name} is not available: this process has no MCP client.`, { error_code: "mcp_unavailable" });
  const timeoutMs = def.timeoutMs ?? MCP_DEFAULT_TIMEOUT_MS;
  try {
    const conn = await resolveMcpConnection(tc.ctx, entry.server, def);
    const result = await mcp.callTool(conn, entry.tool, args, { signal: tc.signal, timeoutMs });
    return mapMcpResult(entry, result);
  } catch (err) {
    if (tc.signal.aborted) throw Object.assign(new Error("aborted"), { name: "AbortError" });
    const raw = err instanceof Error ? err.message : String(err);
    const message = redactText(raw, tc.ctx.secrets);
    if (err instanceof McpVariableMissingError) return toolError(message, { error_code: "mcp_variable_missing" });
    if (err instanceof McpUnavailableError) return toolError(`Tool ${entry.name} is not available: ${message}`, { error_code: "mcp_unavailable" });
    if ((err as { code?: unknown }).code === REQUEST_TIMEOUT)
      return toolError(`Tool ${entry.name} timed out after ${timeoutMs} ms (the timeoutMs of mcp/${entry.server}.ts).`, { error_code: "mcp_timeout" });
    tc.deps.log("warn", `MCP tool ${entry.name} failed`, { threadId: tc.thread.id, error: message });
    return toolError(`Tool ${entry.name} failed: ${message}`, { error_code: "mcp_error" });
  }
}
