import { qualifiedName, type DefinitionKind, type ParsedSideConfig, type SessionToolBinding } from "@/server/spec";
import { RUNTIME_TOOL_NAMES } from "../link-tool-entries";
import type { ValidatedEntry, ValidatedSet } from "../validate";

type Parsed<K extends DefinitionKind> = ValidatedEntry<K>["definition"];

/**
 * Puts a package's validated definitions in its namespace: every name becomes `packageId/name`, and so does every
 * name they reference (side prompts, session and stop tools, models and fallbacks, tool entries, includes, hooks).
 * References are qualified whether or not the package defines them, so a package never reaches the root graph's or
 * another package's definitions (an unknown name is reported by the linker as `packageId/name`). The runtime's own
 * lifecycle tools keep their names.
 */
export function qualifyPackage(set: ValidatedSet, packageId: string): ValidatedSet {
  const q = (name: string) => ((RUNTIME_TOOL_NAMES as readonly string[]).includes(name) ? name : qualifiedName(packageId, name));
  const binding = (b: SessionToolBinding | undefined) => (b === undefined ? undefined : typeof b === "string" ? q(b) : { ...b, name: q(b.name) });
  const side = (s: ParsedSideConfig | undefined) =>
    s && {
      ...s,
      prompt: q(s.prompt),
      ...(s.stopTool !== undefined ? { stopTool: q(s.stopTool) } : {}),
      ...(s.sessionStop !== undefined ? { sessionStop: binding(s.sessionStop) } : {}),
      ...(s.sessionFail !== undefined ? { sessionFail: binding(s.sessionFail) } : {}),
      ...(s.sessionStatus !== undefined ? { sessionStatus: binding(s.sessionStatus) } : {}),
    };
  const out = { fileNames: new Map<string, string>() } as ValidatedSet;
  for (const [file, name] of set.fileNames) out.fileNames.set(file, q(name));
  const rename = <K extends DefinitionKind>(kind: K, map: (d: Parsed<K>) => Parsed<K>) => {
    const renamed = new Map<string, ValidatedEntry<K>>();
    for (const [name, e] of set[kind] as Map<string, ValidatedEntry<K>>) {
      renamed.set(q(name), { ...e, name: q(name), definition: map(e.definition) });
    }
    (out as Record<string, unknown>)[kind] = renamed;
  };
  rename("agents", (d) => ({
    ...d,
    name: q(d.name),
    sideA: side(d.sideA)!,
    ...(d.sideB ? { sideB: side(d.sideB) } : {}),
    ...(d.hooks ? { hooks: d.hooks.map(q) } : {}),
  }));
  rename("prompts", (d) => ({
    ...d,
    name: q(d.name),
    model: q(d.model),
    tools: d.tools.map((t) => (typeof t === "string" ? q(t) : { ...t, name: q(t.name) })),
    prompt: Array.isArray(d.prompt) ? d.prompt.map((p) => (p.type === "include" ? { ...p, prompt: q(p.prompt) } : p)) : d.prompt,
    ...(d.hooks ? { hooks: d.hooks.map(q) } : {}),
  }));
  rename("models", (d) => ({ ...d, name: q(d.name), ...(d.fallbacks ? { fallbacks: d.fallbacks.map(q) } : {}) }));
  rename("tools", (d) => ({ ...d, ...(d.name !== undefined ? { name: q(d.name) } : {}) }));
  rename("hooks", (d) => ({ ...d, id: q(d.id) }));
  rename("effects", (d) => ({ ...d, name: q(d.name) }));
  return out;
}
