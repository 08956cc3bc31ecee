import path from "node:path";
import { unpackPackage } from "@/server/registry";
import { CliError, loadProject, type CliProject, type CommandOutput } from "./project";

/**
 * `studio unpack <package>`: copies an installed (or packed/) package's definition files into AGENTS_DIR as editable
 * files, keeping every file that already exists there, and reports each file: copied, already identical, or kept.
 */
export async function unpackCommand(project: CliProject, io: CommandOutput, packageId: string | undefined): Promise<number> {
  if (!packageId) throw new CliError("Name the package to unpack: studio unpack <package> (see the packages `studio validate` lists).", 2);
  const snap = await loadProject(project);
  const pkg = snap.packages?.find((p) => p.id === packageId && !p.shadowed);
  if (!pkg) {
    const known = snap.packages?.filter((p) => !p.shadowed).map((p) => p.id).join(", ") || "none";
    throw new CliError(`No package "${packageId}" is installed (packages found: ${known}). Install it with npm install ${packageId}, or copy it to ${path.relative(project.root, path.join(snap.dir, "packed"))}/.`);
  }
  const report = await unpackPackage(path.resolve(snap.dir, pkg.folder), snap.dir);
  for (const f of report) io.out(`${f.status.padEnd(9)} ${f.file}${f.status === "kept" ? " (exists with other content; not overwritten)" : ""}`);
  const copied = report.filter((f) => f.status === "copied").length;
  io.out(`Unpacked ${packageId} into ${path.relative(project.root, snap.dir) || "."}: ${copied} copied, ${report.length - copied} already there.`);
  return 0;
}
