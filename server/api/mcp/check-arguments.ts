import type { RegistrySnapshot } from "@/server/registry";
import type { AgentTool } from "./agent-tools";

type SafeParse = { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };

/**
 * The arguments of an MCP call checked against what the agent takes: its side A prompt's `requiredSchema`, or a
 * `message` string. Returns the error text naming each bad field, or null when they are fine.
 */
export function checkAgentArguments(snap: RegistrySnapshot, tool: AgentTool, args: Record<string, unknown>): string | null {
  if (!tool.structured) {
    return typeof args.message === "string" && args.message.trim() !== ""
      ? null
      : `Invalid arguments for ${tool.name}: message: a non-empty string is required.`;
  }
  const agent = snap.agents.get(tool.name);
  const schema = agent ? (snap.prompts.get(agent.definition.sideA.prompt)?.definition.requiredSchema as SafeParse | undefined) : undefined;
  if (!schema) return null;
  const r = schema.safeParse(args);
  if (r.success) return null;
  const issues = (r.error?.issues ?? []).map((i) => `${i.path.map(String).join(".") || "(arguments)"}: ${i.message}`).join("; ");
  return `Invalid arguments for ${tool.name}: ${issues}.`;
}
