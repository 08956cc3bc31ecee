import type { RegistrySnapshot } from "../types";
import type { CollectedGraph } from "./collect";

/** The package README, written from the definitions' descriptions. */
export function packageReadme(snap: RegistrySnapshot, packageId: string, version: string, entry: string, graph: CollectedGraph, variables: { name: string; type: string; required: boolean; description?: string }[]): string {
  const agent = snap.agents.get(entry)!.definition;
  const lines = [`# ${packageId}`, "", `${agent.description ?? agent.title ?? `The ${entry} agent.`}`, ""];
  lines.push(`A packed Standard Agents graph (version ${version}). Install it next to your \`agents/\` folder:`, "");
  lines.push("```sh", `npm install ${packageId}`, "```", "");
  lines.push(`Its definitions are then named \`${packageId}/<name>\`: start a thread of \`${packageId}/${entry}\`.`, "");
  lines.push("## Agents", "");
  for (const name of graph.definitions.agents) {
    const a = snap.agents.get(name)?.definition;
    lines.push(`- \`${name}\`${name === entry ? " (entry)" : ""}: ${a?.description ?? a?.title ?? ""}`.trimEnd());
  }
  lines.push("", "## Tools", "");
  for (const name of graph.definitions.tools) lines.push(`- \`${name}\`: ${snap.tools.get(name)?.definition.description ?? ""}`);
  if (graph.definitions.tools.length === 0) lines.push("None.");
  lines.push("", "## Variables", "");
  for (const v of variables) lines.push(`- \`${v.name}\` (${v.type}${v.required ? ", required" : ""})${v.description ? `: ${v.description}` : ""}`);
  if (variables.length === 0) lines.push("None.");
  lines.push("", "Packed with `studio pack`; `standardagent.json` holds the contents' signature.", "");
  return lines.join("\n");
}
