import { z } from "zod";
import type { RegistrySnapshot } from "@/server/registry";

/** An agent offered to MCP clients as a tool. */
export interface AgentTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties?: Record<string, object>; required?: string[]; [k: string]: unknown };
  /** True when the arguments follow the side A prompt's `requiredSchema` (else: `{ message }`). */
  structured: boolean;
}

const MESSAGE_SCHEMA: AgentTool["inputSchema"] = {
  type: "object",
  properties: { message: { type: "string", description: "The message that starts the agent's thread" } },
  required: ["message"],
};

/**
 * Every agent with `exposeAsTool: true`, as an MCP tool: its `toolDescription` (else its description), and as input
 * the `requiredSchema` of its side A prompt, or `{ message }` when that prompt has none.
 */
export function exposedAgentTools(snap: RegistrySnapshot): AgentTool[] {
  const out: AgentTool[] = [];
  for (const agent of snap.agents.values()) {
    const def = agent.definition;
    if (!def.exposeAsTool) continue;
    const schema = snap.prompts.get(def.sideA.prompt)?.definition.requiredSchema;
    let inputSchema = MESSAGE_SCHEMA;
    if (schema) {
      const json = z.toJSONSchema(schema as z.ZodType, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
      delete json.$schema;
      inputSchema = { ...json, type: "object" };
    }
    out.push({
      name: agent.name,
      description: def.toolDescription || def.description || `Run the ${agent.name} agent`,
      inputSchema,
      structured: !!schema,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
