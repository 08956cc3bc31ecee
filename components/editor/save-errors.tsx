"use client";

import { useEditor } from "./state/editor-context";
import { docName } from "./state/editor-state";

export interface SaveError {
  message: string;
  details: Array<{ file: string; path: string; message: string }>;
}

/** Why a save was refused, field by field, each with a jump to the field. */
export function SaveErrors({ error, onClose }: { error: SaveError; onClose(): void }) {
  const { state, dispatch, graph } = useEditor();
  const jump = (file: string, path: string) => {
    const doc = Object.values(state.docs).find((d) => d.file === file || (d.file === null && `${d.kind}/${docName(d)}.ts` === file));
    const node = doc && graph.nodes.find((n) => n.defId === doc.id);
    if (!doc || !node) return;
    dispatch({ type: "select", selection: { type: "node", id: node.id } });
    dispatch({ type: "focus", defId: doc.id, path });
  };
  return (
    <div role="alert" data-testid="save-error" className="border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100">
      <div className="flex items-start gap-2">
        <p className="flex-1 font-medium">{error.message}</p>
        <button type="button" aria-label="Dismiss" onClick={onClose} className="px-1">
          ✕
        </button>
      </div>
      {error.details.length > 0 ? (
        <ul className="mt-1 list-disc pl-5 text-xs">
          {error.details.map((d, i) => (
            <li key={i}>
              <button type="button" className="underline underline-offset-2" onClick={() => jump(d.file, d.path)}>
                {d.file}
                {d.path ? ` · ${d.path}` : ""}
              </button>
              : {d.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
