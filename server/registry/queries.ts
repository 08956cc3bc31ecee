import type { AgentType, VariableDefinition } from "@/server/spec";
import type { Diagnostic } from "@/shared/diagnostic";
import { agentGraphFiles } from "./graph";
import type { RegistrySnapshot, ResolvedToolEntry } from "./types";
import { graphVariables, requiredAtCreation, toVariableDefinition } from "./variables";

/** An agent as the API and the UI list it. */
export interface AgentSummary {
  name: string;
  type: AgentType;
  title?: string;
  description?: string;
  icon?: string;
  exposeAsTool: boolean;
  toolDescription?: string;
  sides: { a: { prompt: string; label?: string }; b?: { prompt: string; label?: string } };
  maxSessionTurns?: number;
  /** Variables a thread needs at creation (see `requiredAtCreation`). */
  requiredVariables: VariableDefinition[];
  /** Every variable declared in the agent's graph. */
  variables: VariableDefinition[];
  file: string;
  /** True when any file of the agent's graph has an error diagnostic. */
  hasErrors: boolean;
}

const side = (s: { prompt: string; label?: string }) => (s.label !== undefined ? { prompt: s.prompt, label: s.label } : { prompt: s.prompt });

/** Diagnostics of every file in an agent's graph (the agent, its prompts, tools, models, hooks, subagents). */
export function agentGraphDiagnostics(snapshot: RegistrySnapshot, agentName: string): Diagnostic[] {
  const files = agentGraphFiles(snapshot, agentName);
  return snapshot.diagnostics.filter((d) => files.has(d.file));
}

const summaryCache = new WeakMap<RegistrySnapshot, AgentSummary[]>();

/** One summary per agent, sorted by name (computed once per snapshot; treat the result as read-only). */
export function agentSummaries(snapshot: RegistrySnapshot): AgentSummary[] {
  const cached = summaryCache.get(snapshot);
  if (cached) return cached;
  const summaries = computeSummaries(snapshot);
  summaryCache.set(snapshot, summaries);
  return summaries;
}

function computeSummaries(snapshot: RegistrySnapshot): AgentSummary[] {
  return [...snapshot.agents.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((a) => {
      const def = a.definition;
      const summary: AgentSummary = {
        name: a.name,
        type: def.type,
        exposeAsTool: def.exposeAsTool,
        sides: a.sides.b ? { a: side(a.sides.a), b: side(a.sides.b) } : { a: side(a.sides.a) },
        requiredVariables: requiredAtCreation(snapshot, a.name).map(toVariableDefinition),
        variables: graphVariables(snapshot, a.name).variables.map(toVariableDefinition),
        file: a.file,
        hasErrors: agentGraphDiagnostics(snapshot, a.name).some((d) => d.severity === "error"),
      };
      if (def.title !== undefined) summary.title = def.title;
      if (def.description !== undefined) summary.description = def.description;
      if (def.icon !== undefined) summary.icon = def.icon;
      if (def.toolDescription !== undefined) summary.toolDescription = def.toolDescription;
      if (def.maxSessionTurns !== undefined) summary.maxSessionTurns = def.maxSessionTurns;
      return summary;
    });
}

/** The resolved tool entries of a prompt, in order; undefined when the prompt is not in the snapshot. */
export function resolvePromptTools(snapshot: RegistrySnapshot, promptName: string): readonly ResolvedToolEntry[] | undefined {
  return snapshot.prompts.get(promptName)?.tools;
}
