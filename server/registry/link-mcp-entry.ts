import { IDENTIFIER_MAX_LENGTH, IDENTIFIER_PATTERN, mcpToolName, splitMcpToolName } from "@/server/spec";
import type { DiagnosticSink } from "./diagnostics";
import { didYouMean, listNames } from "./schema-fields";
import type { ResolvedToolEntry } from "./types";
import type { ValidatedEntry, ValidatedSet } from "./validate";

type McpEntry = Extract<ResolvedToolEntry, { kind: "mcp" }>;

/**
 * Resolves a prompt's tools entry that names a tool of an MCP server (`server.tool` or `server__tool`). Undefined when
 * the entry is not an MCP tool (a tool, prompt or agent of that name wins); null when it names one but is invalid
 * (reported). Which tools a server has is known only once it is connected, so only the server's own `tools`
 * allow-list is checked here; a tool the server lacks is a clear tool error at run time.
 */
export function resolveMcpEntry(
  name: string,
  index: number,
  prompt: ValidatedEntry<"prompts">,
  field: string,
  v: ValidatedSet,
  sink: DiagnosticSink,
): McpEntry | null | undefined {
  const split = splitMcpToolName(name);
  if (!split || v.tools.has(name) || v.prompts.has(name) || v.agents.has(name)) return undefined;
  const servers = v.mcpServers ?? new Map();
  const base = { kind: "prompts" as const, file: prompt.file, name: prompt.name, field };
  const server = servers.get(split.server);
  if (!server) {
    if (!name.includes(".")) return undefined;
    const known = [...servers.keys()];
    sink.error({
      ...base,
      message: `Prompt "${prompt.name}" offers "${name}", but there is no MCP server "${split.server}".${didYouMean(split.server, known)}`,
      fix: `Create mcp/${split.server}.ts with \`export default defineMcpServer({ name: '${split.server}', transport: 'stdio', command, args })\`, or correct the name in ${prompt.file}. Known MCP servers: ${listNames(known)}.`,
    });
    return null;
  }
  const modelName = mcpToolName(split.server, split.tool);
  if (!IDENTIFIER_PATTERN.test(modelName) || modelName.length > IDENTIFIER_MAX_LENGTH) {
    sink.error({
      ...base,
      message: `"${modelName}" (the name the model is offered for "${name}") is not a valid LLM function name: letters, digits, "_" and "-" only, at most ${IDENTIFIER_MAX_LENGTH} characters.`,
      fix: `Offer another tool of ${server.file}, or give the server a shorter name.`,
    });
    return null;
  }
  const allowed = server.definition.tools;
  if (allowed && !allowed.includes(split.tool)) {
    sink.error({
      ...base,
      message: `Prompt "${prompt.name}" offers "${name}", but MCP server "${server.name}" (${server.file}) allows only ${listNames(allowed)}.${didYouMean(split.tool, allowed)}`,
      fix: `Add "${split.tool}" to \`tools\` in ${server.file}, or offer one of its allowed tools.`,
    });
    return null;
  }
  const entry = prompt.definition.tools[index];
  if (entry && typeof entry === "object") {
    const extra = Object.keys(entry).filter((k) => k !== "name");
    for (const k of extra)
      sink.warning({
        ...base,
        field: `tools.${index}.${k}`,
        message: `\`${k}\` has no effect on "${name}", a tool of MCP server "${server.name}"; it is ignored.`,
        fix: `Remove \`${k}\` from tools.${index} in ${prompt.file} (headers, env and timeouts belong in ${server.file}).`,
      });
  }
  return { kind: "mcp", name: modelName, index, server: split.server, tool: split.tool };
}
