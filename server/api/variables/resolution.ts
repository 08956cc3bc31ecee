import { graphVariables, requiredAtCreation, type DefinitionValueSource, type VariableDeclarationSite } from "@/server/registry";
import type { EnvValueRecord } from "@/server/runtime/ports";
import type { App } from "../app-context";
import { ApiError } from "../errors";

/** The layers of env resolution, highest first (design.md §4). */
export const RESOLUTION_ORDER = ["thread", "user", "instance", "agent", "tool", "prompt"] as const;
export type ResolutionLayer = (typeof RESOLUTION_ORDER)[number];

export interface AgentVariableView {
  name: string;
  type: "text" | "secret";
  required: boolean;
  scoped: boolean;
  description: string;
  /** Declared by which agent, prompt or tool (`subagent_path` = subagents between the agent and the declaration). */
  declared_by: { kind: "agent" | "prompt" | "tool"; name: string; subagent_path: string[] }[];
  /** Which layers hold a value, highest first. */
  layers: ResolutionLayer[];
  /** Where the value currently comes from: the highest layer that holds one. */
  source: ResolutionLayer | null;
  /** Required at thread creation and nothing provides it. */
  missing: boolean;
  /** Required, scoped and declared only inside a subagent: asked for when that child is spawned. */
  deferred: boolean;
}

const KIND = { agents: "agent", prompts: "prompt", tools: "tool" } as const;
const DEF_LAYER: Record<DefinitionValueSource["kind"], ResolutionLayer> = { "agent env": "agent", "tool config env": "tool", "prompt env": "prompt" };

/**
 * For an agent: every variable its graph declares, where each is declared, which layers hold a value for the given
 * user (and thread), where the value comes from, and which required ones are missing. Values are never returned.
 */
export async function agentVariables(app: App, agentName: string, who: { userId: string | null; threadId?: string }): Promise<{ agent: string; order: readonly ResolutionLayer[]; variables: AgentVariableView[] }> {
  const snap = app.registry.current();
  if (!snap.agents.has(agentName)) throw new ApiError(404, "NOT_FOUND", `Agent ${agentName} not found`);
  const env = app.persistence.env;
  const names = (rows: EnvValueRecord[]) => new Set(rows.map((r) => r.name));
  const [thread, user, instance] = await Promise.all([
    who.threadId ? env.list("thread", who.threadId).then(names) : Promise.resolve(new Set<string>()),
    who.userId ? env.list("user", who.userId).then(names) : Promise.resolve(new Set<string>()),
    env.list("instance", "instance").then(names),
  ]);
  const graph = graphVariables(snap, agentName);
  const needed = new Set(requiredAtCreation(snap, agentName).map((v) => v.name));
  const variables = graph.variables.map((v): AgentVariableView => {
    const defLayers = new Set((graph.definitionValues[v.name] ?? []).map((s) => DEF_LAYER[s.kind]));
    const has: Record<ResolutionLayer, boolean> = {
      thread: thread.has(v.name),
      user: user.has(v.name),
      instance: instance.has(v.name),
      agent: defLayers.has("agent"),
      tool: defLayers.has("tool"),
      prompt: defLayers.has("prompt"),
    };
    const layers = RESOLUTION_ORDER.filter((l) => has[l]);
    const stored = has.thread || has.user || has.instance;
    return {
      name: v.name,
      type: v.type,
      required: v.required,
      scoped: v.scoped,
      description: v.description,
      declared_by: v.declaredBy.map((d: VariableDeclarationSite) => ({ kind: KIND[d.kind], name: d.name, subagent_path: d.subagentPath })),
      layers,
      source: layers[0] ?? null,
      missing: needed.has(v.name) && !stored,
      deferred: v.required && v.scoped && v.onlyInSubagents,
    };
  });
  return { agent: agentName, order: RESOLUTION_ORDER, variables };
}
