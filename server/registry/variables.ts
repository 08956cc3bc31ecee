import type { VariableDefinition } from "@/server/spec";
import { walkAgentGraph } from "./graph";
import type {
  DefinitionValueSource,
  GraphVariable,
  GraphVariables,
  RegistrySnapshot,
  VariableDeclarationSite,
} from "./types";

interface Declaration {
  variable: VariableDefinition;
  site: VariableDeclarationSite;
}

interface Collected {
  declarations: Declaration[];
  values: Map<string, DefinitionValueSource[]>;
}

const contextKey = (path: readonly string[]) => path.join("/");

function collect(snapshot: RegistrySnapshot, agentName: string): Collected {
  const declarations: Declaration[] = [];
  const values = new Map<string, DefinitionValueSource[]>();
  const addValue = (name: string, source: DefinitionValueSource) => values.set(name, [...(values.get(name) ?? []), source]);
  for (const node of walkAgentGraph(snapshot, agentName)) {
    const site: VariableDeclarationSite = { kind: "agents", name: node.name, file: node.file, subagentPath: node.subagentPath };
    if (node.kind === "agents") {
      const a = snapshot.agents.get(node.name)!;
      for (const variable of a.definition.variables) declarations.push({ variable, site });
      for (const key of Object.keys(a.definition.env ?? {})) {
        addValue(key, { kind: "agent env", name: a.name, file: a.file, subagentPath: node.subagentPath });
      }
    } else if (node.kind === "prompts") {
      const p = snapshot.prompts.get(node.name)!;
      for (const variable of p.definition.variables) declarations.push({ variable, site: { ...site, kind: "prompts" } });
      for (const key of Object.keys(p.definition.env)) {
        addValue(key, { kind: "prompt env", name: p.name, file: p.file, subagentPath: node.subagentPath });
      }
      for (const entry of p.tools) {
        if (entry.kind !== "tool") continue;
        for (const key of Object.keys(entry.config.env)) {
          addValue(key, { kind: "tool config env", name: p.name, file: p.file, tool: entry.name, subagentPath: node.subagentPath });
        }
      }
    } else if (node.kind === "tools") {
      const t = snapshot.tools.get(node.name)!;
      for (const variable of t.definition.variables) declarations.push({ variable, site: { ...site, kind: "tools" } });
    }
  }
  return { declarations, values };
}

/** True when a definition value reaches the declaration: same thread, and for a tool config env the same tool. */
function satisfied(d: Declaration, values: Map<string, DefinitionValueSource[]>): boolean {
  const key = contextKey(d.site.subagentPath);
  return (values.get(d.variable.name) ?? []).some(
    (s) => contextKey(s.subagentPath) === key && (s.kind !== "tool config env" || (d.site.kind === "tools" && s.tool === d.site.name)),
  );
}

function merge(name: string, decls: Declaration[], values: Map<string, DefinitionValueSource[]>): GraphVariable {
  return {
    name,
    type: decls.some((d) => d.variable.type === "secret") ? "secret" : "text",
    required: decls.some((d) => d.variable.required),
    scoped: decls.some((d) => d.variable.scoped),
    description: decls.find((d) => d.variable.description.trim() !== "")?.variable.description ?? "",
    declaredBy: decls.map((d) => d.site),
    onlyInSubagents: decls.every((d) => d.site.subagentPath.length > 0),
    scopedInOwnThread: decls.some((d) => d.variable.scoped && d.site.subagentPath.length === 0),
    hasDefinitionValue: values.has(name),
  };
}

function byName(declarations: Declaration[]): Map<string, Declaration[]> {
  const out = new Map<string, Declaration[]>();
  for (const d of declarations) out.set(d.variable.name, [...(out.get(d.variable.name) ?? []), d]);
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Every variable declared in an agent's graph (the agent, its sides' prompts and their includes, callable tools,
 * subprompts, handoff targets and subagents recursively), merged by name, with where each is declared and which
 * names already have a definition value (agent `env`, prompt `env`, tool-config `env`). Unknown agent: no variables.
 */
export function graphVariables(snapshot: RegistrySnapshot, agentName: string): GraphVariables {
  const { declarations, values } = collect(snapshot, agentName);
  const variables = [...byName(declarations)].map(([name, decls]) => merge(name, decls, values));
  const definitionValues: Record<string, DefinitionValueSource[]> = {};
  for (const [name, sources] of [...values].sort(([a], [b]) => a.localeCompare(b))) definitionValues[name] = sources;
  return { agent: agentName, variables, definitionValues };
}

/**
 * The variables a thread of `agentName` must be given when it is created: required somewhere in the graph, not
 * satisfied by a definition value in the declaring thread, and not a `scoped` variable declared inside a subagent
 * subtree (those are asked for when the child is spawned).
 */
export function requiredAtCreation(snapshot: RegistrySnapshot, agentName: string): GraphVariable[] {
  const { declarations, values } = collect(snapshot, agentName);
  const out: GraphVariable[] = [];
  for (const [name, decls] of byName(declarations)) {
    const needed = decls.some(
      (d) => d.variable.required && !(d.variable.scoped && d.site.subagentPath.length > 0) && !satisfied(d, values),
    );
    if (needed) out.push(merge(name, decls, values));
  }
  return out;
}

/**
 * The required scoped variables a child thread of subagent `agentName` needs when it is spawned: the variables that
 * `requiredAtCreation` leaves to spawn time, seen from the child's own graph.
 */
export function requiredScopedAtSpawn(snapshot: RegistrySnapshot, agentName: string): GraphVariable[] {
  const { declarations, values } = collect(snapshot, agentName);
  const out: GraphVariable[] = [];
  for (const [name, decls] of byName(declarations)) {
    const needed = decls.some((d) => d.variable.required && d.variable.scoped && d.site.subagentPath.length === 0 && !satisfied(d, values));
    if (needed) out.push(merge(name, decls, values));
  }
  return out;
}

/** A merged graph variable as the spec's `VariableDefinition`. */
export function toVariableDefinition(v: GraphVariable): VariableDefinition {
  return { name: v.name, type: v.type, required: v.required, scoped: v.scoped, description: v.description };
}
