import { belongsToPackage, DEFINITION_KINDS } from "@/server/spec";
import type { ValidatedEntry, ValidatedSet } from "../validate";

/**
 * Adds a package's (already qualified) definitions to the root graph's validated set. Qualified names hold the
 * package id and a `/`, which no root definition name can hold, so nothing collides.
 */
export function mergeValidated(into: ValidatedSet, from: ValidatedSet): void {
  for (const [file, name] of from.fileNames) into.fileNames.set(file, name);
  for (const kind of DEFINITION_KINDS) {
    const target = into[kind] as Map<string, ValidatedEntry>;
    for (const [name, entry] of from[kind] as Map<string, ValidatedEntry>) target.set(name, entry);
  }
}

/** The entries of a linked map, each with `package` set when a package defines it. */
export function packageOf<T extends { name: string }>(map: ReadonlyMap<string, T>, packages: readonly { id: string }[]): [string, T][] {
  return [...map].map(([name, record]) => {
    const pkg = packages.find((p) => belongsToPackage(name, p.id));
    return [name, pkg ? { ...record, package: pkg.id } : record];
  });
}
