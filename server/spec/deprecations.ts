import type { ParsedAgentDefinition } from "./agent";
import { type DeprecatedAlias, prefixAliases } from "./deprecation";
import type { ParsedPromptDefinition } from "./prompt";
import type { ParsedToolDefinition } from "./tool";

/** Deprecated fields used in a parsed agent, with paths from the agent's root (e.g. `sideA.failSessionTool`). */
export function agentDeprecatedAliases(agent: ParsedAgentDefinition): DeprecatedAlias[] {
  const out: DeprecatedAlias[] = [...prefixAliases("sideA", agent.sideA.deprecatedAliases)];
  if (agent.sideB) out.push(...prefixAliases("sideB", agent.sideB.deprecatedAliases));
  if (agent.tenvs !== undefined) out.push({ field: "tenvs", replacement: "env" });
  return out;
}

/** Deprecated fields used in a parsed prompt (`tenvs`, `tools.<i>.tenvs`). */
export function promptDeprecatedAliases(prompt: ParsedPromptDefinition): DeprecatedAlias[] {
  const out: DeprecatedAlias[] = [];
  if (prompt.tenvs !== undefined) out.push({ field: "tenvs", replacement: "env" });
  prompt.tools.forEach((entry, index) => {
    if (typeof entry !== "string" && entry.tenvs !== undefined) {
      out.push({ field: `tools.${index}.tenvs`, replacement: "env" });
    }
  });
  return out;
}

/** Deprecated fields used in a parsed tool (`tenvs`). */
export function toolDeprecatedAliases(tool: ParsedToolDefinition): DeprecatedAlias[] {
  return tool.tenvs !== undefined ? [{ field: "tenvs", replacement: "variables" }] : [];
}
