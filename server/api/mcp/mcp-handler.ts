import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { App } from "../app-context";
import { ApiError } from "../errors";
import type { RouteContext } from "../rest/router";
import { exposedAgentTools } from "./agent-tools";
import { runAgentCall } from "./run-agent-call";
import { checkAgentArguments } from "./check-arguments";

const OUTPUT_SCHEMA = {
  type: "object" as const,
  properties: {
    threadId: { type: "string", description: "The thread the call ran in (GET /api/threads/:id)" },
    status: { type: "string", description: "The thread's status when the run ended" },
    result: { type: "string", description: "The agent's answer" },
  },
  required: ["threadId", "status", "result"],
};

const errorResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });

/**
 * `/api/mcp`: our agents as an MCP server (Streamable HTTP, stateless: every POST carries one JSON-RPC exchange).
 * Only an API key with the `mcp` scope gets in. Every agent with `exposeAsTool: true` is a tool; a call starts a
 * thread for the key's user, sends progress notifications while it runs (when the caller asks for them with a
 * progress token) and answers with the agent's reply and the thread id.
 */
export async function mcpHandler({ request, app, caller }: RouteContext<App>): Promise<Response> {
  if (caller?.via !== "api-key") {
    throw new ApiError(401, "UNAUTHORIZED", "The MCP endpoint needs an API key with the mcp scope: send it as Authorization: Bearer <key>", [
      { path: "authorization", message: "an API key with the mcp scope" },
    ]);
  }
  const server = new Server({ name: "standard-agents-studio", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: exposedAgentTools(app.registry.current()).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, outputSchema: OUTPUT_SCHEMA })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const snap = app.registry.current();
    const tool = exposedAgentTools(snap).find((t) => t.name === req.params.name);
    if (!tool) return errorResult(`Unknown tool ${req.params.name}: call tools/list for the agents exposed as tools.`);
    const args = req.params.arguments ?? {};
    const invalid = checkAgentArguments(snap, tool, args);
    if (invalid) return errorResult(invalid);
    const token = req.params._meta?.progressToken;
    try {
      const outcome = await runAgentCall(app, caller, tool, args, {
        signal: extra.signal,
        ...(token !== undefined
          ? { onProgress: (progress, message) => void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, message } }).catch(() => undefined) }
          : {}),
      });
      return {
        isError: outcome.isError,
        content: [{ type: "text", text: outcome.text }],
        structuredContent: { threadId: outcome.threadId, status: outcome.status, result: outcome.text },
      };
    } catch (err) {
      return errorResult(`The ${tool.name} agent could not start: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  return transport.handleRequest(request);
}
