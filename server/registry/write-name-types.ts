import fs from "node:fs/promises";
import path from "node:path";
import { NAME_TYPES_FILE, nameTypesDeclaration } from "./name-types";
import type { RegistrySnapshot } from "./types";

/**
 * Writes AGENTS_DIR/studio-names.d.ts for a snapshot without errors, only when its text changes (so the write does
 * not trigger another reload). Returns whether it wrote. A graph with errors keeps its previous file.
 */
export async function writeNameTypes(snap: RegistrySnapshot): Promise<boolean> {
  if (snap.diagnostics.some((d) => d.severity === "error")) return false;
  const target = path.join(snap.dir, NAME_TYPES_FILE);
  const text = nameTypesDeclaration(snap);
  if ((await fs.readFile(target, "utf8").catch(() => null)) === text) return false;
  await fs.writeFile(target, text);
  return true;
}
