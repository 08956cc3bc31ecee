"use client";

import { useCallback } from "react";
import type { GraphEdge } from "@/shared/graph-projection";
import type { DocObject } from "@/shared/editor/doc";
import { subagentBadges } from "../edges/subagent-mode";
import { useDefinitionCtx } from "../form/definition-form";
import { FormContext } from "../form/form-context";
import { ToolEntryEditor } from "../form/tools-field";
import { useEditor } from "../state/editor-context";
import { removeEdge } from "../state/graph-actions";
import { entryKindIn, suggestFor } from "../state/suggestions";

const TITLES: Record<GraphEdge["kind"], string> = {
  side: "Side → prompt",
  model: "Prompt → model",
  fallback: "Model → fallback model",
  tool: "Prompt → callable tool",
  subprompt: "Prompt → subprompt",
  handoff: "Prompt → handoff agent",
  subagent: "Prompt → subagent",
  include: "Prompt → included prompt",
  hook: "Hook",
};

function EntryOptions({ edge }: { edge: GraphEdge }) {
  const { state, dispatch, readonly, nodesById } = useEditor();
  const defId = edge.entry!.defId;
  const doc = state.docs[defId];
  const onChange = useCallback((value: DocObject, coalesce: string) => dispatch({ type: "edit", changes: { [defId]: value }, coalesce }), [dispatch, defId]);
  const suggest = useCallback((full: string, value: DocObject) => suggestFor(state.docs, "prompts", full, value), [state.docs]);
  const entryKind = useCallback((name: string) => entryKindIn(state.docs, name), [state.docs]);
  const issues = nodesById.get(edge.source)?.issues ?? [];
  const ctx = useDefinitionCtx({ kind: "prompts", defId, value: doc?.value ?? {}, base: doc?.base ?? null, readOnly: readonly || !doc?.writable, issues, onChange, suggest, entryKind });
  if (!doc?.value) return null;
  const target = nodesById.get(edge.target);
  return (
    <FormContext.Provider value={ctx}>
      <div data-testid="entry-form" data-field-path={`tools.${edge.entry!.index}`}>
        <ToolEntryEditor index={edge.entry!.index} kind={target ? entryKindIn(state.docs, target.name) : undefined} />
      </div>
    </FormContext.Provider>
  );
}

/** The selected edge: what it stands for, its options (a tools entry's config) and how to remove it. */
export function EdgePanel({ edge }: { edge: GraphEdge }) {
  const { state, nodesById, run, readonly, dispatch } = useEditor();
  const source = nodesById.get(edge.source);
  const target = nodesById.get(edge.target);
  const removable = edge.kind !== "side" && edge.kind !== "model";
  return (
    <div className="flex flex-col gap-3" data-testid="edge-panel" data-edge-kind={edge.kind}>
      <header>
        <p className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{TITLES[edge.kind]}</p>
        <h2 className="font-mono text-sm font-semibold break-all">
          {source?.name}
          {edge.sourceHandle ? ` (${edge.sourceHandle === "side-b" ? "side B" : "side A"})` : ""} → {target?.name}
        </h2>
        {edge.subagent ? (
          <div className="mt-1 flex flex-wrap gap-1">
            {subagentBadges(edge.subagent).map((b) => (
              <span key={b.text} title={b.title} className="rounded bg-violet-100 px-1.5 py-0.5 text-[11px] text-violet-800 dark:bg-violet-950 dark:text-violet-200">
                {b.text}
              </span>
            ))}
          </div>
        ) : null}
      </header>
      {edge.entry ? <EntryOptions edge={edge} /> : null}
      <div className="flex flex-wrap gap-2">
        {source ? (
          <button type="button" className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800" onClick={() => dispatch({ type: "select", selection: { type: "node", id: source.id } })}>
            Open {source.name}
          </button>
        ) : null}
        {removable ? (
          <button
            type="button"
            disabled={readonly}
            className="rounded border border-red-300 px-2 py-1 text-xs text-red-800 hover:bg-red-50 disabled:opacity-50 dark:border-red-800 dark:text-red-200 dark:hover:bg-red-950"
            onClick={() => {
              if (run(removeEdge(state.docs, edge, nodesById))) dispatch({ type: "select", selection: null });
            }}
          >
            Remove this link
          </button>
        ) : (
          <p className="text-xs text-slate-500">{edge.kind === "side" ? "Change the side's prompt in the agent's form, or drag the side to another prompt." : "Change the model in the prompt's form, or drag the prompt to another model."}</p>
        )}
      </div>
    </div>
  );
}
