import type { Diagnostic } from "@/shared/diagnostic";
import type { App } from "../app-context";
import { mcpLiveStatus } from "./live-status";

/**
 * A warning for each MCP server this process could not reach at its last attempt (a definition can be valid and its
 * server still down): shown with the registry's diagnostics until the server answers again.
 */
export function mcpDownDiagnostics(app: App): Diagnostic[] {
  const snap = app.registry.current();
  const out: Diagnostic[] = [];
  for (const s of mcpLiveStatus(app)) {
    const record = snap.mcpServers.get(s.name);
    if (!record || s.state !== "down") continue;
    const where = record.definition.transport === "http" ? `the url ${record.definition.url}` : `the command ${record.definition.command}`;
    out.push({
      severity: "warning",
      kind: "mcp",
      file: record.file,
      name: s.name,
      field: record.definition.transport === "http" ? "url" : "command",
      message: `MCP server "${s.name}" is unreachable: ${s.error ?? "no answer"}. Its tools answer with an error until it is back.`,
      fix: `Check that ${where} in ${record.file} serves MCP; the app tries again by itself${s.retryAt ? ` (next attempt ${s.retryAt})` : ""}.`,
    });
  }
  return out;
}
