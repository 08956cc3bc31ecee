import { MCP_VARIABLE_PATTERN, type ParsedMcpServerDefinition } from "@/server/spec";
import type { ResolvedToolEntry } from "../definitions";
import type { ChatTool } from "../llm/types";
import type { McpServerConnection, McpToolInfo } from "../ports";
import type { StepContext } from "./step-context";

/** A prompt entry naming a tool of an MCP server. */
export type McpEntry = Extract<ResolvedToolEntry, { kind: "mcp" }>;

/** Default longest time of one MCP tool call. */
export const MCP_DEFAULT_TIMEOUT_MS = 60_000;

/** A header or env value names a variable that has no value for this thread. */
export class McpVariableMissingError extends Error {
  constructor(
    readonly server: string,
    readonly variable: string,
  ) {
    super(
      `MCP server ${server} needs the variable ${variable} (in a header or env value), and it has no value for this thread. ` +
        `Set ${variable} for the thread, the user or the instance.`,
    );
  }
}

async function fill(ctx: StepContext, server: string, values: Record<string, string> | undefined): Promise<Record<string, string> | undefined> {
  if (!values) return undefined;
  const out: Record<string, string> = {};
  for (const [key, template] of Object.entries(values)) {
    let result = "";
    let last = 0;
    for (const m of template.matchAll(MCP_VARIABLE_PATTERN)) {
      const name = m[1]!;
      const v = await ctx.lookupEnv(name);
      if (!v) throw new McpVariableMissingError(server, name);
      result += template.slice(last, m.index) + v.value;
      last = m.index! + m[0].length;
    }
    out[key] = result + template.slice(last);
  }
  return out;
}

/**
 * The connection settings of a server for this thread: `{{NAME}}` placeholders in headers and env replaced by the
 * variable's value (thread, then user, then instance). Secret values stay out of events and results: the step's
 * secrets mask them wherever text leaves the tool.
 */
export async function resolveMcpConnection(ctx: StepContext, name: string, def: ParsedMcpServerDefinition): Promise<McpServerConnection> {
  const headers = await fill(ctx, name, def.headers);
  const env = await fill(ctx, name, def.env);
  return {
    name,
    transport: def.transport,
    ...(def.command !== undefined ? { command: def.command } : {}),
    ...(def.args !== undefined ? { args: def.args } : {}),
    ...(def.cwd !== undefined ? { cwd: def.cwd } : {}),
    ...(def.url !== undefined ? { url: def.url } : {}),
    ...(headers ? { headers } : {}),
    ...(env ? { env } : {}),
  };
}

const ANY_ARGUMENTS = { type: "object", properties: {}, additionalProperties: true };

function chatTool(entry: McpEntry, description: string, parameters: Record<string, unknown>): ChatTool {
  return { type: "function", function: { name: entry.name, description, parameters } };
}

function parametersOf(info: McpToolInfo): Record<string, unknown> {
  const schema: Record<string, unknown> = { ...info.inputSchema };
  delete schema.$schema;
  if (schema.type !== "object") schema.type = "object";
  schema.properties ??= {};
  return schema;
}

/**
 * The function tool the model is offered for an MCP entry, from the server's own tool list. A server that cannot be
 * reached still has its tool offered (with any arguments), so that a call gets a clear tool error, not silence.
 */
export async function mcpChatTool(ctx: StepContext, entry: McpEntry): Promise<ChatTool> {
  const def = ctx.defs.mcpServer(entry.server);
  const unavailable = (why: string) => chatTool(entry, `Tool ${entry.tool} of MCP server ${entry.server} (${why}).`, ANY_ARGUMENTS);
  if (!def || !ctx.mcp) return unavailable("not available");
  try {
    const tools = await ctx.mcp.listTools(await resolveMcpConnection(ctx, entry.server, def));
    const info = tools.find((t) => t.name === entry.tool);
    if (!info) return unavailable("the server does not list it");
    return chatTool(entry, info.description || `Tool ${entry.tool} of MCP server ${entry.server}.`, parametersOf(info));
  } catch {
    return unavailable("the server is unavailable right now");
  }
}
