import type { McpServerStatus } from "@/server/runtime/ports";
import type { App } from "../app-context";

/** The MCP servers' connection state where the threads run: the runtime thread's, else this process's pool. */
export function mcpLiveStatus(app: App): McpServerStatus[] {
  return app.mcpStatus ? app.mcpStatus() : (app.runtime.deps.mcp?.status() ?? []);
}
