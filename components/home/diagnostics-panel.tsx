import type { Diagnostic } from "./types";

/** Definition problems grouped by file, errors first, each with field, message and fix. */
export function DiagnosticsPanel({ diagnostics }: { diagnostics: Diagnostic[] }) {
  if (diagnostics.length === 0) {
    return (
      <p data-testid="diagnostics-empty" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">
        No diagnostics: every definition file loaded and linked.
      </p>
    );
  }
  const sorted = [...diagnostics].sort(
    (a, b) => (a.severity === b.severity ? a.file.localeCompare(b.file) : a.severity === "error" ? -1 : 1),
  );
  return (
    <ul data-testid="diagnostics" className="flex flex-col gap-2">
      {sorted.map((d, i) => (
        <li
          key={`${d.file}:${d.field}:${i}`}
          data-testid="diagnostic"
          data-severity={d.severity}
          className={`rounded-lg border px-4 py-3 text-sm ${
            d.severity === "error"
              ? "border-red-200 bg-red-50 text-red-950 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100"
              : "border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-100"
          }`}
        >
          <div className="flex flex-wrap items-baseline gap-x-2 font-mono text-xs">
            <span className="font-semibold uppercase">{d.severity}</span>
            <span data-testid="diagnostic-file">{d.file}</span>
            {d.field ? <span data-testid="diagnostic-field">→ {d.field}</span> : null}
          </div>
          <p data-testid="diagnostic-message" className="mt-1">{d.message}</p>
          {d.fix ? <p className="mt-1 text-xs opacity-80">Fix: {d.fix}</p> : null}
        </li>
      ))}
    </ul>
  );
}
