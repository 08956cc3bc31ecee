"use client";

import { useState } from "react";
import type { SaveStatus } from "@/shared/editor/pending-changes";
import type { GraphNode } from "@/shared/graph-projection";
import { useEditor } from "./state/editor-context";

const button =
  "rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-40 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800";

const STATUS_COLOR: Record<SaveStatus["tone"], string> = {
  saved: "text-slate-600 dark:text-slate-300",
  pending: "text-amber-800 dark:text-amber-300",
  invalid: "font-medium text-red-700 dark:text-red-300",
  readonly: "text-slate-600 dark:text-slate-300",
};

interface Props {
  rootAgent: string | undefined;
  agents: string[];
  onRoot(agent: string | undefined): void;
  onSearch(node: GraphNode): void;
  status: SaveStatus;
  saving: boolean;
  onSave(): void;
  onCollapseAll(): void;
  onExpandAll(): void;
  /** Lays the whole graph out afresh (nodes otherwise keep their places). */
  onTidy(): void;
  /** Focus mode: the focused node's name, or null. */
  spotlight: string | null;
  /** Focuses the selected node (or leaves focus mode). */
  onSpotlight(): void;
}

/** Root agent, search, create, undo/redo, collapse, save. */
export function Toolbar({ rootAgent, agents, onRoot, onSearch, status, saving, onSave, onCollapseAll, onExpandAll, onTidy, spotlight, onSpotlight }: Props) {
  const { state, dispatch, graph, readonly, openDialog } = useEditor();
  const [query, setQuery] = useState("");
  const [newOpen, setNewOpen] = useState(false);
  const find = (q: string) => {
    const text = q.trim().toLowerCase();
    if (!text) return undefined;
    const label = (n: GraphNode) => `${n.name} (${n.kind})`.toLowerCase();
    return graph.nodes.find((n) => label(n) === text) ?? graph.nodes.find((n) => n.name.toLowerCase() === text) ?? graph.nodes.find((n) => n.name.toLowerCase().includes(text));
  };
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-white px-3 py-2 dark:border-slate-800 dark:bg-slate-900" role="toolbar" aria-label="Graph editor">
      <label className="flex items-center gap-1 text-sm">
        <span className="text-slate-600 dark:text-slate-300">Root</span>
        <select aria-label="Root agent" value={rootAgent ?? ""} onChange={(e) => onRoot(e.target.value || undefined)} className={button}>
          <option value="">Whole registry</option>
          {agents.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <form
        role="search"
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          const node = find(query);
          if (node) onSearch(node);
        }}
      >
        <input
          aria-label="Find a node"
          list="editor-node-names"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            const exact = graph.nodes.find((n) => `${n.name} (${n.kind})` === e.target.value);
            if (exact) onSearch(exact);
          }}
          placeholder="Find a node…"
          className={`${button} w-48 font-mono`}
        />
        <datalist id="editor-node-names">
          {graph.nodes.map((n) => (
            <option key={n.id} value={`${n.name} (${n.kind})`} />
          ))}
        </datalist>
        <button type="submit" className={button}>
          Find
        </button>
      </form>
      <div className="relative">
        <button type="button" className={button} disabled={readonly} aria-haspopup="menu" aria-expanded={newOpen} onClick={() => setNewOpen((o) => !o)}>
          + New
        </button>
        {newOpen ? (
          <ul role="menu" className="absolute z-20 mt-1 flex w-40 flex-col rounded border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-900" onKeyDown={(e) => e.key === "Escape" && setNewOpen(false)}>
            {(
              [
                ["agents", "Agent"],
                ["prompts", "Prompt"],
                ["models", "Model"],
              ] as const
            ).map(([kind, label]) => (
              <li key={kind} role="none">
                <button
                  role="menuitem"
                  type="button"
                  className="w-full px-3 py-1 text-left text-sm hover:bg-slate-100 focus-visible:bg-slate-100 dark:hover:bg-slate-800"
                  onClick={() => {
                    setNewOpen(false);
                    openDialog({ type: "new", kind });
                  }}
                >
                  {label}
                </button>
              </li>
            ))}
            <li role="none">
              <button
                role="menuitem"
                type="button"
                className="w-full px-3 py-1 text-left text-sm hover:bg-slate-100 focus-visible:bg-slate-100 dark:hover:bg-slate-800"
                onClick={() => {
                  setNewOpen(false);
                  openDialog({ type: "tool" });
                }}
              >
                Tool file…
              </button>
            </li>
          </ul>
        ) : null}
      </div>
      <button type="button" className={button} disabled={state.past.length === 0} onClick={() => dispatch({ type: "undo" })} title="Undo (Ctrl+Z)">
        ↶ Undo
      </button>
      <button type="button" className={button} disabled={state.future.length === 0} onClick={() => dispatch({ type: "redo" })} title="Redo (Ctrl+Shift+Z)">
        ↷ Redo
      </button>
      <button type="button" className={button} onClick={onCollapseAll} title="Collapse every agent's subtree">
        Collapse all
      </button>
      <button type="button" className={button} onClick={onExpandAll}>
        Expand all
      </button>
      <button
        type="button"
        className={`${button} ${spotlight ? "border-amber-400 bg-amber-50 dark:bg-amber-950" : ""}`}
        aria-pressed={spotlight !== null}
        disabled={!spotlight && state.selection?.type !== "node"}
        onClick={onSpotlight}
        title={spotlight ? "Show the whole graph again (Esc)" : "Show the selected node with its neighbours only"}
      >
        {spotlight ? `Focus: ${spotlight} ✕` : "Focus"}
      </button>
      <button type="button" className={button} onClick={onTidy} title="Lay out the whole graph afresh and fit it in view">
        Tidy layout
      </button>
      <div className="ml-auto flex items-center gap-2">
        {readonly ? (
          <span data-testid="readonly-badge" title="You can look, select and try agents; edits are off." className="rounded-full border border-amber-300 bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
            🔒 View only
          </span>
        ) : null}
        <span role="status" data-testid="editor-status" data-tone={status.tone} className={`text-sm ${STATUS_COLOR[status.tone]}`}>
          {status.text}
        </span>
        {!readonly ? (
          <button
            type="button"
            onClick={onSave}
            disabled={!status.canSave || saving}
            className="rounded bg-indigo-600 px-3 py-1 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-40"
            title="Save (Ctrl+S)"
          >
            {saving ? "Saving…" : "Save"}
          </button>
        ) : null}
      </div>
    </div>
  );
}
