import { z } from "zod";
import { IDENTIFIER_MAX_LENGTH } from "./names";

/**
 * Between an MCP server's name and one of its tools in the name a model is offered: `everything__echo`. A dot is not
 * valid in an LLM function name (OpenAI-compatible names allow only letters, digits, `_` and `-`), so prompts may list
 * an MCP tool as `everything.echo` or `everything__echo`, and the model always sees `everything__echo`.
 */
export const MCP_TOOL_SEPARATOR = "__";

/** An MCP server name: a letter, then letters, digits, `-` and single `_` (no `__`, which separates the tool). */
export const MCP_SERVER_NAME_PATTERN = /^[A-Za-z](?:[A-Za-z0-9-]|_(?!_))*$/;

/** A placeholder for a variable in a header or env value: `{{NAME}}` (thread, user, instance precedence). */
export const MCP_VARIABLE_PATTERN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Longest time a call may take before it fails (10 minutes). */
export const MCP_MAX_TIMEOUT_MS = 600_000;

const valueRecord = (what: string) =>
  z.record(z.string(), z.string({ error: `${what} values must be strings; put a variable as "{{NAME}}"` }));

/** The fields of `defineMcpServer`. */
export const mcpServerDefinitionSchema = z
  .object({
    name: z
      .string()
      .min(1, { error: 'MCP server name must not be empty: use a snake_case name such as "docs"' })
      .max(32, { error: "MCP server name must be at most 32 characters long (it prefixes every tool name)" })
      .regex(MCP_SERVER_NAME_PATTERN, {
        error: (issue) =>
          `MCP server name ${JSON.stringify(issue.input)} is not valid: use letters, digits, "-" and single "_", ` +
          `starting with a letter (for example "docs"); "__" separates the server from the tool`,
      }),
    description: z.string().optional(),
    transport: z.enum(["stdio", "http"], { error: "transport must be 'stdio' (a command) or 'http' (Streamable HTTP)" }),
    /** stdio: the program to run. */
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    /** stdio: working directory of the program (relative to the project root). */
    cwd: z.string().optional(),
    /** http: the Streamable HTTP endpoint. */
    url: z.url({ error: "url must be an absolute http(s) URL such as 'https://example.com/mcp'" }).optional(),
    /** http: request headers; values may hold `{{VARIABLE}}` placeholders (secret variables stay secret). */
    headers: valueRecord("headers").optional(),
    /** stdio: environment of the program; values may hold `{{VARIABLE}}` placeholders. */
    env: valueRecord("env").optional(),
    /** Only these tools of the server are offered (all when absent). */
    tools: z.array(z.string().min(1)).optional(),
    /** Longest time one tool call may take (default 60 s). */
    timeoutMs: z.number().int().positive().max(MCP_MAX_TIMEOUT_MS).optional(),
  })
  .superRefine((d, ctx) => {
    if (d.transport === "stdio" && !d.command)
      ctx.addIssue({ code: "custom", path: ["command"], message: "required: add `command: 'npx'` (the program that serves MCP over stdio)" });
    if (d.transport === "http" && !d.url)
      ctx.addIssue({ code: "custom", path: ["url"], message: "required: add `url: 'https://…/mcp'` (the Streamable HTTP endpoint)" });
    if (d.transport === "http")
      for (const f of ["command", "args", "cwd", "env"] as const)
        if (d[f] !== undefined) ctx.addIssue({ code: "custom", path: [f], message: `${f} is for transport 'stdio'; remove it or use transport 'stdio'` });
    if (d.transport === "stdio")
      for (const f of ["url", "headers"] as const)
        if (d[f] !== undefined) ctx.addIssue({ code: "custom", path: [f], message: `${f} is for transport 'http'; remove it or use transport 'http'` });
    for (const [i, t] of (d.tools ?? []).entries()) {
      const full = `${d.name}${MCP_TOOL_SEPARATOR}${t}`;
      if (!/^[A-Za-z0-9_-]+$/.test(t) || full.length > IDENTIFIER_MAX_LENGTH)
        ctx.addIssue({
          code: "custom",
          path: ["tools", i],
          message: `"${full}" cannot be an LLM function name: use a tool whose name has only letters, digits, "_" and "-", ${IDENTIFIER_MAX_LENGTH} characters in all`,
        });
    }
  });

/** An MCP server definition as written. */
export type McpServerDefinition = z.input<typeof mcpServerDefinitionSchema>;
/** An MCP server definition after validation. */
export type ParsedMcpServerDefinition = z.output<typeof mcpServerDefinitionSchema>;

/** Define an MCP server whose tools prompts can offer (`agents/mcp/<name>.ts`). */
export function defineMcpServer(definition: McpServerDefinition): McpServerDefinition {
  return definition;
}

/** The name a model is offered for a tool of an MCP server: `server__tool`. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_TOOL_SEPARATOR}${tool}`;
}

/**
 * Splits a prompt's tools entry that names an MCP tool (`server.tool` or `server__tool`) into its server and tool;
 * undefined when the name has neither separator.
 */
export function splitMcpToolName(name: string): { server: string; tool: string } | undefined {
  const dot = name.indexOf(".");
  const sep = name.indexOf(MCP_TOOL_SEPARATOR);
  const at = dot > 0 && (sep < 0 || dot < sep) ? dot : sep;
  if (at <= 0) return undefined;
  const width = at === dot ? 1 : MCP_TOOL_SEPARATOR.length;
  const tool = name.slice(at + width);
  return tool ? { server: name.slice(0, at), tool } : undefined;
}

/** The variables a header or env value reads (`{{NAME}}` placeholders). */
export function mcpVariablesIn(value: string): string[] {
  return [...value.matchAll(MCP_VARIABLE_PATTERN)].map((m) => m[1]!);
}
