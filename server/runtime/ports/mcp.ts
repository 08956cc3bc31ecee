/**
 * How the runtime reaches MCP servers. The composition root passes an implementation (the official SDK client, in
 * `server/mcp/`); the runtime never imports it.
 */

/** One MCP server to talk to, with its header and env placeholders already replaced by variable values. */
export interface McpServerConnection {
  /** The server's registry name. */
  name: string;
  transport: "stdio" | "http";
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  env?: Record<string, string>;
}

/** A tool a server lists. */
export interface McpToolInfo {
  name: string;
  description?: string;
  /** JSON schema of the tool's arguments (an object schema). */
  inputSchema: Record<string, unknown>;
}

/** One content block of a tool result (MCP `CallToolResult.content`). */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: "resource_link"; uri: string; name?: string; mimeType?: string; description?: string };

/** What a tool call returned. */
export interface McpCallResult {
  content: McpContent[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
}

/** Progress a server reported during a call. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** The state of one server's connection, for the editor. */
export interface McpServerStatus {
  name: string;
  state: "connected" | "connecting" | "down" | "idle";
  /** The last connection error (secret values masked by the caller). */
  error?: string;
  /** When the next connection attempt may happen (ISO), while down. */
  retryAt?: string;
  tools?: McpToolInfo[];
}

/** Thrown when a server cannot be reached (down, refusing, or within its reconnect backoff). */
export class McpUnavailableError extends Error {
  constructor(
    readonly server: string,
    message: string,
    readonly retryAt?: Date,
  ) {
    super(message);
    this.name = "McpUnavailableError";
  }
}

/** The MCP client the runtime uses. Calls reject with `McpUnavailableError` when the server cannot be reached. */
export interface McpClientPort {
  listTools(server: McpServerConnection, signal?: AbortSignal): Promise<McpToolInfo[]>;
  callTool(
    server: McpServerConnection,
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number; onProgress?: (p: McpProgress) => void },
  ): Promise<McpCallResult>;
  status(): McpServerStatus[];
  close(): Promise<void>;
}
