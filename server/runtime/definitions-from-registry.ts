import { graphVariables, requiredAtCreation, requiredScopedAtSpawn, type RegistrySnapshot } from "@/server/registry";
import type { Definitions } from "./definitions";

/** The runtime's view of one registry snapshot. Per-agent variable queries are cached for the snapshot's life. */
export function definitionsFromSnapshot(snap: RegistrySnapshot): Definitions {
  const required = new Map<string, ReturnType<Definitions["requiredAtCreation"]>>();
  const declared = new Map<string, ReturnType<Definitions["graphVariables"]>>();
  return {
    agent: (n) => snap.agents.get(n)?.definition,
    prompt: (n) => snap.prompts.get(n)?.definition,
    model: (n) => snap.models.get(n)?.definition,
    tool: (n) => snap.tools.get(n)?.definition,
    hook: (n) => snap.hooks.get(n)?.definition,
    effect: (n) => snap.effects.get(n)?.definition,
    mcpServer: (n) => snap.mcpServers.get(n)?.definition,
    promptTools: (n) => snap.prompts.get(n)?.tools ?? [],
    requiredAtCreation(agentName) {
      let v = required.get(agentName);
      if (!v) {
        v = requiredAtCreation(snap, agentName).map((g) => ({ name: g.name, type: g.type, description: g.description }));
        required.set(agentName, v);
      }
      return v;
    },
    graphVariables(agentName) {
      let v = declared.get(agentName);
      if (!v) {
        v = graphVariables(snap, agentName).variables.map((g) => ({ name: g.name, type: g.type, scoped: g.scoped ?? false, scopedInOwnThread: g.scopedInOwnThread, required: g.required }));
        declared.set(agentName, v);
      }
      return v;
    },
    requiredScopedAtSpawn: (agentName) => requiredScopedAtSpawn(snap, agentName).map((g) => g.name),
    agentNames: () => [...snap.agents.keys()],
    promptNames: () => [...snap.prompts.keys()],
    modelNames: () => [...snap.models.keys()],
  };
}

/** Cache the adapter per snapshot so a step sees one consistent, cheap view. */
export function definitionsCache(current: () => RegistrySnapshot): () => Definitions {
  let snap: RegistrySnapshot | null = null;
  let defs: Definitions | null = null;
  return () => {
    const now = current();
    if (now !== snap) {
      snap = now;
      defs = definitionsFromSnapshot(now);
    }
    return defs!;
  };
}
