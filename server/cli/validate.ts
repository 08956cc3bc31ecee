import path from "node:path";
import { formatDiagnostic } from "@/server/registry";
import { loadProject, type CliProject, type CommandOutput } from "./project";

/**
 * `studio validate`: loads every definition through the registry and prints its diagnostics, one per line
 * (severity, file, field, message, fix). Returns 1 when any is an error, so CI fails on a broken definition.
 */
export async function validateCommand(project: CliProject, io: CommandOutput, options: { json?: boolean } = {}): Promise<number> {
  const snap = await loadProject(project);
  const errors = snap.diagnostics.filter((d) => d.severity === "error");
  if (options.json) {
    io.out(JSON.stringify({ dir: snap.dir, diagnostics: snap.diagnostics }, null, 2));
    return errors.length > 0 ? 1 : 0;
  }
  for (const d of snap.diagnostics) (d.severity === "error" ? io.err : io.out)(formatDiagnostic(d));
  const counts = [
    `${snap.agents.size} agents`,
    `${snap.prompts.size} prompts`,
    `${snap.models.size} models`,
    `${snap.tools.size} tools`,
    `${snap.hooks.size} hooks`,
    `${snap.effects.size} effects`,
    `${snap.endpoints.length + snap.controllers.length} routes`,
    `${snap.evals.size} evals`,
  ].join(", ");
  const where = path.relative(project.root, snap.dir) || ".";
  const warnings = snap.diagnostics.length - errors.length;
  io.out(`${where}: ${counts}; ${errors.length} error${errors.length === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}.`);
  return errors.length > 0 ? 1 : 0;
}
