"use client";

import { useCallback } from "react";
import { isEditableKind, type DocObject } from "@/shared/editor/doc";
import type { GraphNode } from "@/shared/graph-projection";
import { DefinitionForm } from "../form/definition-form";
import { useEditor } from "../state/editor-context";
import { isDirty } from "../state/editor-state";
import { entryKindIn, suggestFor } from "../state/suggestions";
import { ReadOnlyInfo } from "./read-only-info";

const button =
  "rounded border border-slate-300 px-2 py-1 text-xs font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800";

/** The selected node's definition: header with actions, its problems, and the generated form (or read-only facts). */
export function DefinitionPanel({ node }: { node: GraphNode }) {
  const { state, dispatch, readonly, openDialog } = useEditor();
  const doc = state.docs[node.defId];
  const docs = state.docs;
  const onChange = useCallback((value: DocObject, coalesce: string) => dispatch({ type: "edit", changes: { [node.defId]: value }, coalesce }), [dispatch, node.defId]);
  const suggest = useCallback((full: string, value: DocObject) => (doc && isEditableKind(doc.kind) ? suggestFor(docs, doc.kind, full, value) : undefined), [docs, doc]);
  const entryKind = useCallback((name: string) => entryKindIn(docs, name), [docs]);
  if (!doc) return <p className="p-3 text-sm text-slate-500">This definition is no longer in the registry.</p>;
  const editable = isEditableKind(doc.kind) && doc.value !== null;
  const canWrite = doc.writable && !readonly;
  const focus = state.focus?.defId === node.defId ? { path: state.focus.path, nonce: state.focus.nonce } : null;
  return (
    <div className="flex flex-col gap-3" data-testid="definition-panel" data-name={node.name} data-kind={node.kind}>
      <header className="flex flex-col gap-1">
        <p className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{node.kind}</p>
        <h2 className="font-mono text-base font-semibold break-all">{node.name}</h2>
        <p className="font-mono text-[11px] text-slate-500">
          {doc.file ?? `new file: ${doc.kind}/${node.name}.ts`}
          {doc.renameTo && doc.file ? ` → tools/${doc.renameTo}.ts` : ""}
          {isDirty(doc) ? <span className="ml-2 rounded bg-amber-100 px-1 text-amber-900 dark:bg-amber-950 dark:text-amber-200">unsaved</span> : null}
        </p>
        {!canWrite && doc.reason ? <p className="text-xs text-slate-600 dark:text-slate-400">Read-only: {doc.reason}.</p> : null}
        <div className="mt-1 flex flex-wrap gap-1">
          {node.kind === "agent" ? (
            <>
              <button type="button" className={button} onClick={() => openDialog({ type: "try", agent: node.name })}>
                ▶ Try it
              </button>
              <a className={button} href={`/editor?root=${encodeURIComponent(node.name)}`}>
                Show its tree
              </a>
            </>
          ) : null}
          {node.kind !== "file" && node.kind !== "hook" ? (
            <>
              <button type="button" className={button} disabled={!canWrite && !(doc.kind === "tools" && !readonly)} onClick={() => openDialog({ type: "rename", defId: node.defId })}>
                Rename…
              </button>
              <button type="button" className={button} disabled={readonly || (!canWrite && doc.kind !== "tools")} onClick={() => openDialog({ type: "delete", defId: node.defId })}>
                Delete…
              </button>
            </>
          ) : null}
        </div>
      </header>
      {editable ? (
        <DefinitionForm
          kind={doc.kind as "agents" | "prompts" | "models"}
          defId={doc.id}
          value={doc.value!}
          base={doc.base}
          readOnly={!canWrite}
          issues={node.issues}
          onChange={onChange}
          suggest={suggest}
          entryKind={entryKind}
          focus={focus}
        />
      ) : (
        <ReadOnlyInfo node={node} doc={doc} />
      )}
    </div>
  );
}
