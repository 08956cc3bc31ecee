import fs from "node:fs/promises";
import path from "node:path";
import { walkAgentGraph } from "../graph";
import type { RegistrySnapshot } from "../types";
import { graphVariables } from "../variables";
import { importSpecifiers, isProvidedModule, resolveRelative } from "./imports";

/** Why an agent cannot be packed: each problem names the file and what to change. */
export class PackRefusedError extends Error {
  constructor(readonly problems: string[]) {
    super(`Cannot pack:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/** What an agent reaches, as files relative to AGENTS_DIR, with the local names per kind. */
export interface CollectedGraph {
  files: string[];
  definitions: { agents: string[]; prompts: string[]; models: string[]; tools: string[]; hooks: string[]; effects: string[] };
  routes: string[];
}

const rel = (dir: string, abs: string) => path.relative(dir, abs).split(path.sep).join("/");

/**
 * Collects `agentName` and everything it reaches: its graph (prompts, includes, models and fallbacks, hooks, tools,
 * subprompts, handoffs, subagents), the effects its code names, the thread endpoints under `api/`, and every file those
 * import relatively. Refuses (PackRefusedError) a secret variable given a value in a definition, an import of a file
 * outside AGENTS_DIR, and an import of a package other than zod and the spec (a packed graph has no dependencies).
 */
export async function collectAgentGraph(snap: RegistrySnapshot, agentName: string): Promise<CollectedGraph> {
  const agent = snap.agents.get(agentName);
  if (!agent) {
    const known = [...snap.agents.keys()].sort().join(", ") || "none";
    throw new PackRefusedError([`There is no agent "${agentName}" (agents: ${known}). Pack one of them, or run \`studio validate\` to see why it did not load.`]);
  }
  if (agent.package) {
    throw new PackRefusedError([`"${agentName}" comes from the package ${agent.package}: unpack it into editable files first (studio unpack ${agent.package}), then pack your copy.`]);
  }
  const errors = snap.diagnostics.filter((d) => d.severity === "error");
  const problems: string[] = [];
  const nodes = walkAgentGraph(snap, agentName);
  const definitions: CollectedGraph["definitions"] = { agents: [], prompts: [], models: [], tools: [], hooks: [], effects: [] };
  const files = new Set<string>();
  for (const n of nodes) {
    const pkg = snap[n.kind].get(n.name)?.package;
    if (pkg) {
      problems.push(`${agentName} reaches ${n.name}, a definition of the installed package ${pkg}: a packed graph cannot depend on another package yet. Unpack ${pkg} (studio unpack ${pkg}) and use your own copies.`);
      continue;
    }
    if (!definitions[n.kind].includes(n.name)) definitions[n.kind].push(n.name);
    files.add(n.file);
  }
  for (const d of errors) if (files.has(d.file)) problems.push(`${d.file} ${d.field}: ${d.message} Fix: ${d.fix}`);
  const code = [...files].filter((f) => /^(tools|hooks)\//.test(f));
  const codeText = await Promise.all(code.map((f) => fs.readFile(path.join(snap.dir, f), "utf8")));
  for (const [name, effect] of snap.effects) {
    if (codeText.some((text) => text.includes(`"${name}"`) || text.includes(`'${name}'`) || text.includes(`\`${name}\``))) {
      definitions.effects.push(name);
      files.add(effect.file);
    }
  }
  const routes = snap.endpoints.filter((r) => !r.package).map((r) => r.file);
  for (const r of routes) files.add(r);
  for (const v of graphVariables(snap, agentName).variables) {
    if (v.type !== "secret" || !v.hasDefinitionValue) continue;
    problems.push(`The secret variable ${v.name} is given a value in a definition (${v.declaredBy.map((s) => s.file).join(", ")}): a package never carries a secret's value. Remove the value from the agent's or prompt's \`env\` and let whoever installs the package provide it.`);
  }
  await followImports(snap.dir, files, problems);
  if (problems.length > 0) throw new PackRefusedError(problems);
  for (const list of Object.values(definitions)) list.sort();
  return { files: [...files].sort(), definitions, routes: routes.sort() };
}

async function followImports(dir: string, files: Set<string>, problems: string[]): Promise<void> {
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const abs = path.join(dir, file);
    const source = await fs.readFile(abs, "utf8");
    for (const spec of importSpecifiers(source)) {
      if (isProvidedModule(spec)) continue;
      if (!spec.startsWith(".")) {
        problems.push(`${file} imports the package "${spec}": a packed graph may import only zod, @studio/spec, Node's built-ins and its own files. Move the code it needs into a file next to ${file}.`);
        continue;
      }
      const target = await resolveRelative(abs, spec);
      const targetRel = target ? rel(dir, target) : undefined;
      if (!target || !targetRel || targetRel.startsWith("../") || path.isAbsolute(targetRel)) {
        problems.push(`${file} imports "${spec}", ${target ? "a file outside the agents folder" : "which does not exist"}: a packed graph may import only files inside the agents folder. Move it into ${path.posix.dirname(file)}/ and import it from there.`);
        continue;
      }
      if (!files.has(targetRel)) {
        files.add(targetRel);
        queue.push(targetRel);
      }
    }
  }
}
