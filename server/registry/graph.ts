import type { RegistrySnapshot } from "./types";

/** One definition reached from an agent, with the subagents between the root agent and it. */
export interface GraphNode {
  kind: "agents" | "prompts" | "tools" | "models" | "hooks";
  name: string;
  file: string;
  /** Subagents spawned on the way from the root agent (`[]` = the root thread, handoffs included). */
  subagentPath: string[];
}

/**
 * Every definition reachable from `agentName`: its sides' prompts, their includes, models (and fallbacks), hooks,
 * callable tools, subprompts, handoff targets (same thread) and subagents (a child thread each, recursively).
 * Cycle-safe: a subagent already on the current path is not entered again. Unknown names are skipped (they are
 * diagnostics already). Returns [] for an unknown agent.
 */
export function walkAgentGraph(snapshot: RegistrySnapshot, agentName: string): GraphNode[] {
  const nodes: GraphNode[] = [];
  const seen = new Set<string>();
  const enter = (kind: GraphNode["kind"], name: string, file: string, path: string[]): boolean => {
    const key = `${kind}\u0000${name}\u0000${path.join("/")}`;
    if (seen.has(key)) return false;
    seen.add(key);
    nodes.push({ kind, name, file, subagentPath: path });
    return true;
  };
  const visitHooks = (ids: readonly string[] | undefined, path: string[]) => {
    for (const id of ids ?? []) {
      const h = snapshot.hooks.get(id);
      if (h) enter("hooks", id, h.file, path);
    }
  };
  const visitModel = (name: string, path: string[]) => {
    const m = snapshot.models.get(name);
    if (!m || !enter("models", name, m.file, path)) return;
    for (const f of m.fallbacks) visitModel(f, path);
  };
  const visitPrompt = (name: string, path: string[]) => {
    const p = snapshot.prompts.get(name);
    if (!p || !enter("prompts", name, p.file, path)) return;
    visitModel(p.definition.model, path);
    visitHooks(p.definition.hooks, path);
    for (const inc of p.includes) visitPrompt(inc, path);
    for (const entry of p.tools) {
      if (entry.kind === "tool") {
        const t = snapshot.tools.get(entry.name);
        if (t) enter("tools", entry.name, t.file, path);
      } else if (entry.kind === "subprompt") visitPrompt(entry.name, path);
      else if (entry.kind === "handoff") visitAgent(entry.name, path);
      else if (!path.includes(entry.name) && entry.name !== agentName) visitAgent(entry.name, [...path, entry.name]);
    }
  };
  const visitAgent = (name: string, path: string[]) => {
    const a = snapshot.agents.get(name);
    if (!a || !enter("agents", name, a.file, path)) return;
    visitHooks(a.definition.hooks, path);
    visitPrompt(a.sides.a.prompt, path);
    if (a.sides.b) visitPrompt(a.sides.b.prompt, path);
  };
  visitAgent(agentName, []);
  return nodes;
}

/** The files of an agent's graph (each once). */
export function agentGraphFiles(snapshot: RegistrySnapshot, agentName: string): Set<string> {
  return new Set(walkAgentGraph(snapshot, agentName).map((n) => n.file));
}
