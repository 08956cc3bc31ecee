import path from "node:path";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConnection } from "@/server/runtime/ports";

/**
 * The SDK transport for a server: a child process speaking MCP over stdio (its env: the SDK's safe defaults such as
 * PATH and HOME, plus the definition's `env`; never the whole process environment), or Streamable HTTP with the
 * definition's headers. `onStderr` receives the child's stderr lines.
 */
export function openTransport(conn: McpServerConnection, defaultCwd: string, onStderr: (line: string) => void): Transport {
  if (conn.transport === "http") {
    if (!conn.url) throw new Error(`MCP server ${conn.name} has no url`);
    return new StreamableHTTPClientTransport(new URL(conn.url), { requestInit: { headers: conn.headers ?? {} } });
  }
  if (!conn.command) throw new Error(`MCP server ${conn.name} has no command`);
  const transport = new StdioClientTransport({
    command: conn.command,
    args: conn.args ?? [],
    env: { ...getDefaultEnvironment(), ...conn.env },
    cwd: conn.cwd ? path.resolve(defaultCwd, conn.cwd) : defaultCwd,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) onStderr(line.trim());
  });
  return transport;
}
