import { buildSnapshot, type RegistrySnapshot } from "@/server/registry";
import type { DefinitionKind } from "@/server/spec";

export type DefinitionObjects = Partial<Record<DefinitionKind, Array<Record<string, unknown> & { name?: string; id?: string }>>>;

/**
 * A real registry snapshot (validated and linked by the registry) built from definition objects instead of files,
 * for unit tests. Tools are keyed by their `name`, as if each lived in `tools/<name>.ts`.
 */
export function snapshotFromObjects(objects: DefinitionObjects): RegistrySnapshot {
  const files = [];
  for (const [kind, list] of Object.entries(objects) as [DefinitionKind, DefinitionObjects[DefinitionKind]][]) {
    for (const value of list ?? []) {
      const base = String(value.name ?? value.id ?? "unnamed");
      const file = `${kind}/${base}.ts`;
      files.push({ kind, file, absPath: `/virtual/${file}`, baseName: base, value });
    }
  }
  const snap = buildSnapshot(
    { files, diagnostics: [], found: files.map(({ kind, file, absPath, baseName }) => ({ kind, file, absPath, baseName })), routes: [] },
    { version: 1, dir: "/virtual" },
  );
  const errors = snap.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    throw new Error(`Test definitions have errors:\n${errors.map((d) => `  ${d.file} ${d.field}: ${d.message}`).join("\n")}`);
  }
  return snap;
}
