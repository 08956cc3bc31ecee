"use client";

import { useState } from "react";
import { docName } from "../state/editor-state";
import { useEditor } from "../state/editor-context";
import { references, remove } from "../state/graph-actions";
import { Modal, secondaryButton } from "./modal";

/** Deletes a definition after showing who references it; the references that can go are removed with it. */
export function DeleteDialog({ defId, onClose }: { defId: string; onClose(): void }) {
  const { state, run } = useEditor();
  const [removeRefs, setRemoveRefs] = useState(true);
  const doc = state.docs[defId];
  if (!doc) return null;
  const refs = references(state.docs, defId);
  const breaking = refs.filter((r) => !r.removable);
  const removable = refs.filter((r) => r.removable);
  return (
    <Modal title={`Delete ${docName(doc)}?`} onClose={onClose} testId="delete-dialog">
      <p className="text-sm">
        {doc.file ? `The file ${doc.file} is deleted when you save.` : "This definition was never saved; it is simply dropped."}
      </p>
      {refs.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">Nothing references it.</p> : null}
      {removable.length > 0 ? (
        <div className="text-sm">
          <label className="flex items-center gap-2 font-medium">
            <input type="checkbox" checked={removeRefs} onChange={(e) => setRemoveRefs(e.target.checked)} className="h-4 w-4 accent-indigo-600" />
            Also remove {removable.length} reference{removable.length === 1 ? "" : "s"}:
          </label>
          <ul className="mt-1 list-disc pl-6 text-xs" data-testid="delete-references">
            {removable.map((r, i) => (
              <li key={i}>
                <span className="font-mono">{r.name}</span> <span className="text-slate-500">{r.path}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {breaking.length > 0 ? (
        <div role="alert" className="rounded border border-amber-300 bg-amber-50 p-2 text-xs text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          <p className="font-medium">These need another target afterwards (they will show as errors):</p>
          <ul className="list-disc pl-5">
            {breaking.map((r, i) => (
              <li key={i}>
                <span className="font-mono">{r.name}</span> {r.path}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="rounded bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-500"
          onClick={() => {
            run(remove(state.docs, defId, removeRefs));
            onClose();
          }}
        >
          Delete
        </button>
      </div>
    </Modal>
  );
}
