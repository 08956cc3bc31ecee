import fs from "node:fs/promises";
import path from "node:path";
import { packedMetaSchema } from "@/server/spec";
import type { Diagnostic } from "@/shared/diagnostic";
import type { DiscoveredPackage } from "./discover";
import { PACKED_META_FILE } from "./package-json";
import { verifySignature } from "./signature";

async function readTree(dir: string, base: string, out: Map<string, Buffer>): Promise<void> {
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) await readTree(abs, base, out);
    else if (e.isFile()) out.set(path.relative(base, abs).split(path.sep).join("/"), await fs.readFile(abs));
  }
}

/**
 * Checks a package's files against the signature in its `standardagent.json` (written by `studio pack`): a package
 * whose definitions changed after packing, or whose metadata is unreadable, gets a warning naming the files. A
 * package without the file (written by hand or by another tool) is not checked.
 */
export async function verifyPackage(pkg: DiscoveredPackage, fileLabel: string): Promise<Diagnostic | null> {
  const text = await fs.readFile(path.join(pkg.root, PACKED_META_FILE), "utf8").catch(() => null);
  if (text === null) return null;
  const where = { severity: "warning" as const, kind: "registry" as const, file: fileLabel, field: "" };
  let meta;
  try {
    meta = packedMetaSchema.parse(JSON.parse(text));
  } catch {
    return { ...where, message: `${pkg.id}: ${PACKED_META_FILE} is not valid packed metadata, so its signature cannot be checked.`, fix: `Reinstall ${pkg.id}, or pack it again with \`studio pack\`.` };
  }
  const files = new Map<string, Buffer>();
  await readTree(pkg.definitionsDir, pkg.root, files);
  const readme = await fs.readFile(path.join(pkg.root, "README.md")).catch(() => null);
  if (readme) files.set("README.md", readme);
  const changed = verifySignature(meta.signature, files);
  if (changed.length === 0) return null;
  return {
    ...where,
    message: `${pkg.id}: ${changed.length} file(s) differ from the package's signature (changed after packing): ${changed.slice(0, 5).join(", ")}${changed.length > 5 ? ", …" : ""}.`,
    fix: `Reinstall ${pkg.id} to get the published files, or unpack it (\`studio unpack ${pkg.id}\`) to change your own copies.`,
  };
}
