import type { SubagentEntryConfig } from "@/server/registry";
import type { ChatTool } from "../llm/types";
import type { SubagentRecord } from "../ports";
import type { StepContext } from "../kernel/step-context";
import type { OfferedTool, SubagentEntry } from "../kernel/tool-call-context";
import { mcpChatTool } from "../kernel/mcp-tools";
import { chatToolFor } from "../kernel/tool-schemas";

/** `optional` gating (design.md §4): enabled iff the env value, trimmed and lower-cased, is true, 1 or yes. */
export async function branchEnabled(ctx: StepContext, config: SubagentEntryConfig): Promise<boolean> {
  if (!config.optional) return true;
  const v = await ctx.lookupEnv(config.optional);
  return !!v && ["true", "1", "yes"].includes(v.value.trim().toLowerCase());
}

const liveCount = (children: SubagentRecord[], agent: string) => children.filter((c) => c.name === agent && c.status !== "terminated").length;

/**
 * The tools offered at this step. Disabled optional branches are absent. Non-resumable subagents are offered under
 * their own name; resumable ones through `subagent_create` (an enum of the prompt's resumable subagents below their
 * `maxInstances`) and `subagent_message` (once a live instance exists).
 */
export async function offeredTools(ctx: StepContext, children: SubagentRecord[]): Promise<{ byName: Map<string, OfferedTool>; chat: ChatTool[] }> {
  const byName = new Map<string, OfferedTool>();
  const chat: ChatTool[] = [];
  const resumables: SubagentEntry[] = [];
  const entries = ctx.defs.promptTools(ctx.prompt.name);
  // Tools of MCP servers come from the servers' own lists: asked for together, not one server after another.
  const mcpTools = new Map(await Promise.all(entries.filter((e) => e.kind === "mcp").map(async (e) => [e, await mcpChatTool(ctx, e)] as const)));
  for (const entry of entries) {
    if (entry.kind === "subagent") {
      if (!(await branchEnabled(ctx, entry.config))) continue;
      if (entry.config.resumable) {
        resumables.push(entry);
        continue;
      }
    }
    const tool = entry.kind === "mcp" ? (mcpTools.get(entry) ?? null) : chatToolFor(ctx.defs, entry);
    if (!tool) continue;
    byName.set(entry.name, entry);
    chat.push(tool);
  }
  if (resumables.length > 0) {
    const creatable = resumables.filter((r) => {
      const max = r.config.resumable ? r.config.resumable.maxInstances : undefined;
      return max === undefined || liveCount(children, r.name) < max;
    });
    byName.set("subagent_create", { kind: "lifecycle", name: "subagent_create", resumables });
    if (creatable.length > 0) chat.push(createTool(ctx, creatable));
    const live = children.some((c) => c.resumable && c.status !== "terminated" && resumables.some((r) => r.name === c.name));
    byName.set("subagent_message", { kind: "lifecycle", name: "subagent_message", resumables });
    if (live) chat.push(messageTool());
  }
  return { byName, chat };
}

function createTool(ctx: StepContext, creatable: SubagentEntry[]): ChatTool {
  const lines = creatable.map((r) => `- ${r.name}: ${ctx.defs.agent(r.name)?.toolDescription ?? ""}`).join("\n");
  return {
    type: "function",
    function: {
      name: "subagent_create",
      description: `Create a new, named subagent instance for new work. To follow up with an instance that already exists, use subagent_message instead.\n${lines}`,
      parameters: {
        type: "object",
        properties: {
          agent: { type: "string", enum: creatable.map((r) => r.name), description: "Which subagent to create" },
          message: { type: "string", description: "The task or message for the new instance" },
          attachments: { type: "array", items: { type: "string" }, description: "Attachment paths such as /attachments/brief.pdf ([] when none)" },
          name: { type: "string", description: "A short, unique name for this instance" },
          arguments: { type: "object", description: "Structured arguments for the subagent, if any", additionalProperties: true },
        },
        required: ["agent", "message", "attachments", "name"],
        additionalProperties: false,
      },
    },
  };
}

function messageTool(): ChatTool {
  return {
    type: "function",
    function: {
      name: "subagent_message",
      description: "Send a message to an existing subagent instance (by its reference) to follow up on its work.",
      parameters: {
        type: "object",
        properties: {
          referenceId: { type: "string", description: "The instance's reference" },
          message: { type: "string", description: "The message" },
          attachments: { type: "array", items: { type: "string" }, description: "Attachment paths ([] when none)" },
        },
        required: ["referenceId", "message", "attachments"],
        additionalProperties: false,
      },
    },
  };
}
