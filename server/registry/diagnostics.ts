import type { Diagnostic, DiagnosticSeverity } from "@/shared/diagnostic";

/** Collects diagnostics while the registry is built; one instance per load. */
export class DiagnosticSink {
  readonly items: Diagnostic[] = [];

  add(d: Diagnostic): void {
    this.items.push(d);
  }

  error(d: Omit<Diagnostic, "severity">): void {
    this.items.push({ severity: "error", ...d });
  }

  warning(d: Omit<Diagnostic, "severity">): void {
    this.items.push({ severity: "warning", ...d });
  }
}

const severityOrder: Record<DiagnosticSeverity, number> = { error: 0, warning: 1 };

/** Stable order: by file, then errors before warnings, then field. Equal inputs give byte-identical output. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      severityOrder[a.severity] - severityOrder[b.severity] ||
      a.field.localeCompare(b.field) ||
      a.message.localeCompare(b.message),
  );
}

/** One line per diagnostic, for logs and the CLI: `error agents/writer.ts sideA.prompt: message Fix: fix`. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line !== undefined ? `${d.file}:${d.line}${d.column !== undefined ? `:${d.column}` : ""}` : d.file;
  const field = d.field ? ` ${d.field}` : "";
  return `${d.severity} ${where || "(AGENTS_DIR)"}${field}: ${d.message} Fix: ${d.fix}`;
}
