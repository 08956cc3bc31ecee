"use client";

import { useState } from "react";
import { identifierSchema, modelNameSchema } from "@/server/spec";
import { docName } from "../state/editor-state";
import { useEditor } from "../state/editor-context";
import { references, rename } from "../state/graph-actions";
import { dialogInput, Field, Modal, primaryButton, secondaryButton } from "./modal";

/** Renames a definition; every reference (sides, tools entries, includes, fallbacks, bindings) follows. */
export function RenameDialog({ defId, onClose }: { defId: string; onClose(): void }) {
  const { state, run } = useEditor();
  const doc = state.docs[defId];
  const [name, setName] = useState(doc ? docName(doc) : "");
  const [error, setError] = useState<string | null>(null);
  if (!doc) return null;
  const refs = references(state.docs, defId);
  const schema = doc.kind === "models" ? modelNameSchema : identifierSchema(`${doc.kind.slice(0, -1)} name`, "new_name");
  const submit = () => {
    const parsed = schema.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "invalid name");
    const outcome = rename(state.docs, defId, name);
    if (!outcome.ok) return setError(outcome.message);
    run(outcome);
    onClose();
  };
  return (
    <Modal title={`Rename ${docName(doc)}`} onClose={onClose} testId="rename-dialog">
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Field label="New name" error={error}>
          <input name="name" autoFocus value={name} onChange={(e) => setName(e.target.value.trim())} className={`${dialogInput} font-mono`} aria-invalid={Boolean(error)} />
        </Field>
        <div className="text-sm">
          {refs.length === 0 ? (
            <p className="text-slate-600 dark:text-slate-400">Nothing references it.</p>
          ) : (
            <>
              <p className="font-medium">
                {refs.length} reference{refs.length === 1 ? "" : "s"} will follow:
              </p>
              <ul className="mt-1 list-disc pl-5 text-xs" data-testid="rename-references">
                {refs.map((r, i) => (
                  <li key={i}>
                    <span className="font-mono">{r.name}</span> <span className="text-slate-500">{r.path}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
          {doc.file && doc.file.replace(/^.*\//, "").replace(/\.[^.]+$/, "") === docName(doc) ? (
            <p className="mt-2 text-xs text-slate-500">The file is renamed too when you save.</p>
          ) : null}
        </div>
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton}>
            Rename
          </button>
        </div>
      </form>
    </Modal>
  );
}
