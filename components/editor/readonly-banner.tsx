import type { EditorView } from "@/shared/editor/editor-view";

/** Why the editor does not take edits: the server's setting, or the caller is not an administrator. */
export function ReadonlyBanner({ view }: { view: EditorView }) {
  return (
    <p role="status" data-testid="readonly-banner" data-because={view.readonlyBecause ?? "server"} className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
      {view.readonlyBecause === "role"
        ? "Read-only: only administrators can change definitions. You can explore and inspect the graph and try agents; ask an administrator to make changes."
        : `Read-only: this server does not let the editor write definition files (DEFINITIONS_READONLY=1). You can explore and inspect the graph; to change it, edit the files in ${view.agentsDir}.`}
    </p>
  );
}
