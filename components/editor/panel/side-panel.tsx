"use client";

import { useEditor } from "../state/editor-context";
import { DefinitionPanel } from "./definition-panel";
import { EdgePanel } from "./edge-panel";

/** The right-hand panel: the selected node's definition or the selected edge's options. */
export function SidePanel() {
  const { state, graph, nodesById } = useEditor();
  const sel = state.selection;
  const node = sel?.type === "node" ? nodesById.get(sel.id) : undefined;
  const edge = sel?.type === "edge" ? graph.edges.find((e) => e.id === sel.id) : undefined;
  return (
    <aside aria-label="Selected definition" className="h-full w-[400px] shrink-0 overflow-y-auto border-l border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900" data-testid="side-panel">
      {node ? (
        <DefinitionPanel key={node.defId} node={node} />
      ) : edge ? (
        <EdgePanel key={edge.id} edge={edge} />
      ) : (
        <div className="flex flex-col gap-2 text-sm text-slate-600 dark:text-slate-300">
          <p className="font-medium">Select a node or an edge to edit it.</p>
          <ul className="list-disc pl-4 text-xs">
            <li>Drag from a prompt&apos;s bottom handle to a tool, prompt, agent or model to connect them.</li>
            <li>Drag from an agent&apos;s side handle to a prompt to set the side&apos;s prompt.</li>
            <li>Problems show on the nodes: open the badge and jump to the field.</li>
            <li>Edits stay in your browser until you save; Ctrl+Z / Ctrl+Shift+Z undo and redo.</li>
          </ul>
        </div>
      )}
    </aside>
  );
}
